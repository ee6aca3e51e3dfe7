import { useLocation } from "react-router";
import { loginPathFor, STAFF_HOME } from "~/server/auth/safe-redirect";
import type { FormDraftState } from "./use-form-draft";

/** The sign-in page that comes back to `path`, as the staff guard sends there. */
const signInReturningTo = (path: string) => loginPathFor(new URL(path, "http://this.site"));

/**
 * What a staff form offers when the session ended before it was sent: sign in here, and the form is sent by
 * itself on return, with every answer from the device's draft; or sign in in another tab and press the send
 * button again here. Either way it is stored once, under the draft's double-submit key.
 */
export function SignInAgain({ draft }: { draft: FormDraftState }) {
  const { pathname } = useLocation();
  const here = signInReturningTo(pathname);
  return (
    <span className="mt-3 flex flex-wrap gap-3">
      <a
        href={here}
        className="button-primary min-h-11"
        onClick={async (event) => {
          event.preventDefault();
          await draft.sendAfterSignIn();
          window.location.assign(here);
        }}
      >
        Sign in and send
      </a>
      <a href={signInReturningTo(STAFF_HOME)} target="_blank" rel="noopener" className="button-secondary min-h-11">
        Sign in in a new tab
      </a>
    </span>
  );
}
