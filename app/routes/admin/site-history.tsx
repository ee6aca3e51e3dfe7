import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { loadSiteHistory, siteHistoryAction } from "~/features/site-editor/site-editor.server";
import { SiteHistoryScreen } from "~/features/site-editor/site-editor-screen";
import type { Route } from "./+types/site-history";

export const meta: Route.MetaFunction = () => staffPageMeta("Site history");

export const loader = ({ context }: Route.LoaderArgs) => loadSiteHistory(context);

export const action = ({ request, context }: Route.ActionArgs) => siteHistoryAction(request, context);

export default function SiteHistory({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage title="Site history" intro={<p>Every version of the site that was published, newest first.</p>}>
      <SiteHistoryScreen versions={loaderData.versions} />
    </StaffPage>
  );
}
