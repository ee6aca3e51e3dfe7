import { Outlet } from "react-router";
import { StaffFrame } from "~/components/staff/staff-frame";
import { staffFrameHandle } from "~/components/staff/staff-frame-handle";

export const handle = staffFrameHandle;

/** The sign-in screens wear the staff frame with only the company mark: nobody is signed in yet. */
export default function SignInLayout() {
  return (
    <StaffFrame>
      <Outlet />
    </StaffFrame>
  );
}
