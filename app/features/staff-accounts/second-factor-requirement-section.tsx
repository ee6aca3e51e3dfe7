import { IntentForm } from "~/components/forms/intent-form";
import { StaffSection } from "~/components/staff/staff-section";

/** An admin's one setting for every account: whether a second factor is required to sign in. */
export function SecondFactorRequirementSection({ secondFactorRequired }: { secondFactorRequired: boolean }) {
  return (
    <StaffSection headingId="second-factor-heading" title="Two-step verification">
      <IntentForm
        intent="require-second-factor"
        label="Save setting"
        busyLabel="Saving..."
        outcomeAbove
        className="mt-4 space-y-4"
      >
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            name="required"
            defaultChecked={secondFactorRequired}
            key={String(secondFactorRequired)}
            className="mt-1 size-5 accent-brand-700"
          />
          <span>
            Require a second factor for everyone. Users without one are asked to set it up before anything else.
          </span>
        </label>
      </IntentForm>
    </StaffSection>
  );
}
