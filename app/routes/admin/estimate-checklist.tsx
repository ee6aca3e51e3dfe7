import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { ChecklistForm } from "~/features/estimate-checklist/checklist-form";
import type { ChecklistActionResult } from "~/features/estimate-checklist/definition";
import { submitChecklist } from "~/features/estimate-checklist/submit-checklist.server";
import { signedInStaff } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/estimate-checklist";

const CHECKLIST_PATH = "/admin/quick-links/estimate-checklist";

export const meta: Route.MetaFunction = () => staffPageMeta("Estimate Checklist");

/** Your Name and Your Email start as the signed-in user: their display name, and their username if it is an email. */
export function loader({ context }: Route.LoaderArgs) {
  const user = signedInStaff(context);
  return {
    defaults: { fillerName: user.displayName, fillerEmail: user.username.includes("@") ? user.username : "" },
  };
}

/** The post of a browser without JavaScript; with it, the form posts to the JSON route beside this one. */
export const action = ({ request, context }: Route.ActionArgs) => submitChecklist(request, context);

export default function EstimateChecklist({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <StaffPage
      title="Estimate Checklist"
      intro="Walk the site, answer what you can and add photos. It is saved on this device as you go; Submit Checklist makes the PDF and files it in the inbox for the office."
    >
      <ChecklistForm
        defaults={loaderData.defaults}
        submitUrl={`${CHECKLIST_PATH}/submit`}
        serverResult={actionData as ChecklistActionResult | undefined}
      />
    </StaffPage>
  );
}
