import { useEffect } from "react";
import { Outlet } from "react-router";
import { dropKeptPages } from "~/components/staff/kept-page";
import { StaffErrorScreen } from "~/components/staff/staff-error-screen";
import { StaffFrame } from "~/components/staff/staff-frame";
import { staffFrameHandle } from "~/components/staff/staff-frame-handle";
import type { Route } from "./+types/sign-in-layout";

export const handle = staffFrameHandle;

/**
 * The sign-in screens wear the staff frame with only the company mark: nobody is signed in yet. Whoever's pages
 * the staff app kept on this device are dropped here: their session has ended (a staff page sends a signed-out
 * visit here), and the next person to sign in must not get them.
 */
export default function SignInLayout() {
  useEffect(() => {
    void dropKeptPages();
  }, []);
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
