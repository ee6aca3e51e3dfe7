import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { estimateRequestForm } from "~/features/scheduling/estimate-request/definition";
import { StaffRequestForm } from "~/features/scheduling/staff-request-form";
import { formRoute } from "~/forms/form-route";
import { submitForm } from "~/forms/submit-form.server";
import { signedInStaff } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/estimate-request";

export const meta: Route.MetaFunction = () => staffPageMeta("Estimate Request Form");

export function loader({ context }: Route.LoaderArgs) {
  const staff = signedInStaff(context);
  return { submittedBy: staff.displayName };
}

export const action = ({ request, context }: Route.ActionArgs) => submitForm(request, context, estimateRequestForm);

export const { clientAction, shouldRevalidate } = formRoute(estimateRequestForm);

export default function EstimateRequest({ loaderData }: Route.ComponentProps) {
  return (
    <StaffPage
      title="Estimate Request Form"
      width="max-w-3xl"
      intro={
        <>
          <p className="text-lg font-semibold text-slate-900">Schedule an estimate visit</p>
          <p className="mt-1">
            Fill in the job, the contact and the appointment. The request goes to the project manager with a calendar
            invite for the visit.
          </p>
        </>
      }
    >
      <StaffRequestForm
        definition={estimateRequestForm}
        defaultValue={{ submittedBy: loaderData.submittedBy }}
        closing="Thank you! The project manager will be in touch with the customer to confirm the visit."
      />
    </StaffPage>
  );
}
