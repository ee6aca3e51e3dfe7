import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { loadSiteEditor, siteEditorAction } from "~/features/site-editor/site-editor.server";
import { SiteEditorScreen } from "~/features/site-editor/site-editor-screen";
import type { Route } from "./+types/site";

export const meta: Route.MetaFunction = () => staffPageMeta("Edit the site");

export const loader = ({ context }: Route.LoaderArgs) => loadSiteEditor(context);

export const action = ({ request, context }: Route.ActionArgs) => siteEditorAction(request, context);

export default function SiteEditor({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage
      title="Edit the site"
      intro={<p>Every word and photo of the public pages. Changes are a draft until you publish them.</p>}
    >
      <SiteEditorScreen {...loaderData} />
    </StaffPage>
  );
}
