import { StaffSection } from "~/components/staff/staff-section";
import { AnsweredForm } from "./answered-form";

/** An admin's one setting for every account: whether a second factor is required to sign in. */
export function SecondFactorRequirementSection({ secondFactorRequired }: { secondFactorRequired: boolean }) {
  return (
    <StaffSection headingId="second-factor-heading" title="Two-step verification">
      <AnsweredForm intent="require-second-factor" label="Save setting" busyLabel="Saving...">
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
      </AnsweredForm>
    </StaffSection>
  );
}
