import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { loadSiteSection, siteSectionAction } from "~/features/site-editor/site-editor.server";
import { SiteSectionScreen } from "~/features/site-editor/site-editor-screen";
import type { Route } from "./+types/site-section";

export const meta: Route.MetaFunction = ({ data }) => staffPageMeta(data?.section.title ?? "Edit the site");

export const loader = ({ context, params }: Route.LoaderArgs) => loadSiteSection(context, params.section);

export const action = ({ request, context, params }: Route.ActionArgs) =>
  siteSectionAction(request, context, params.section);

export default function SiteSection({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage title={loaderData.section.title} width="max-w-3xl">
      <SiteSectionScreen {...loaderData} />
    </StaffPage>
  );
}
