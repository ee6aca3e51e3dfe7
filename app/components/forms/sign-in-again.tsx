import { useLocation } from "react-router";
import { loginPathFor, STAFF_HOME } from "~/services/auth/safe-redirect";

/** The sign-in page that comes back to `path`, as the staff guard sends there. */
const signInReturningTo = (path: string) => loginPathFor(new URL(path, "http://this.site"));

/**
 * What a staff form offers when the session ended before it was sent: the form waits on the device for the
 * person's next sign-in, here or in another tab, and whichever page opens first after it sends it, once.
 */
export function SignInAgain() {
  const { pathname } = useLocation();
  return (
    <span className="mt-3 flex flex-wrap gap-3">
      <a href={signInReturningTo(pathname)} className="button-primary min-h-11">
        Sign in and send
      </a>
      <a href={signInReturningTo(STAFF_HOME)} target="_blank" rel="noopener" className="button-secondary min-h-11">
        Sign in in a new tab
      </a>
    </span>
  );
}
