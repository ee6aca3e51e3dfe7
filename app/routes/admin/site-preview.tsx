import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { SitePreviewScreen } from "~/features/site-editor/site-editor-screen";
import { loadSitePreview } from "~/features/site-editor/site-preview.server";
import type { Route } from "./+types/site-preview";

export const meta: Route.MetaFunction = () => staffPageMeta("Preview of the site");

export const loader = ({ request, context }: Route.LoaderArgs) => loadSitePreview(request, context);

export default function SitePreview({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage title={`Preview: ${loaderData.page.title}`} width="max-w-7xl">
      <SitePreviewScreen {...loaderData} />
    </StaffPage>
  );
}
