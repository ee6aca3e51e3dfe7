import { Outlet } from "react-router";
import { StaffErrorScreen } from "~/components/staff/staff-error-screen";
import { StaffFrame } from "~/components/staff/staff-frame";
import { staffFrameHandle } from "~/components/staff/staff-frame-handle";
import type { Route } from "./+types/sign-in-layout";

export const handle = staffFrameHandle;

/** The sign-in screens wear the staff frame with only the company mark: nobody is signed in yet. */
export default function SignInLayout() {
  return (
    <StaffFrame>
      <Outlet />
    </StaffFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <StaffFrame>
      <StaffErrorScreen error={error} />
    </StaffFrame>
  );
}
