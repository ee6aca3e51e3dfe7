import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { jobRequestForm } from "~/features/scheduling/job-request/definition";
import { StaffRequestForm } from "~/features/scheduling/staff-request-form";
import { formRoute } from "~/forms/form-route";
import { submitForm } from "~/forms/submit-form.server";
import { signedInStaff } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/job-request";

export const meta: Route.MetaFunction = () => staffPageMeta("Job Request Form");

export function loader({ context }: Route.LoaderArgs) {
  const staff = signedInStaff(context);
  return { submittedBy: staff.displayName };
}

export const action = ({ request, context }: Route.ActionArgs) => submitForm(request, context, jobRequestForm);

export const { clientAction, shouldRevalidate } = formRoute(jobRequestForm);

export default function JobRequest() {
  return (
    <StaffPage
      title="Job Request Form"
      width="max-w-3xl"
      intro="Pass a sold job on to be scheduled: the job, its amount and who to contact."
    >
      <StaffRequestForm
        definition={jobRequestForm}
        closing="Thank you for your request. The office will schedule the job and confirm the day."
      />
    </StaffPage>
  );
}
