import { Link } from "react-router";
import { StaffSection } from "~/components/staff/staff-section";

/** Your settings' way to the second factor, which has its own page (sign-in sends people there too). */
export function TwoFactorSettingsSection({ enrolled }: { enrolled: boolean }) {
  return (
    <StaffSection headingId="two-factor-heading" title="Two-step verification" className="mt-10">
      <p className="mt-2 text-slate-700">
        {enrolled
          ? "On: signing in asks for a code from your authenticator app."
          : "Off: signing in asks only for your password."}{" "}
        <Link to="/admin/account/two-factor" className="font-semibold text-brand-800 underline">
          Two-step verification
        </Link>
      </p>
    </StaffSection>
  );
}
