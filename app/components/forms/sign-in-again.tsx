import { useLocation } from "react-router";
import type { FormDraftState } from "./use-form-draft";

const STAFF_HOME = "/admin/quick-links";

/**
 * What a staff form offers when the session ended before it was sent: sign in here, and the form is sent by
 * itself on return, with every answer from the device's draft; or sign in in another tab and press the send
 * button again here. Either way it is stored once, under the draft's double-submit key.
 */
export function SignInAgain({ draft }: { draft: FormDraftState }) {
  const { pathname } = useLocation();
  const here = `/admin?redirectTo=${encodeURIComponent(pathname)}`;
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
      <a
        href={`/admin?redirectTo=${encodeURIComponent(STAFF_HOME)}`}
        target="_blank"
        rel="noopener"
        className="button-secondary min-h-11"
      >
        Sign in in a new tab
      </a>
    </span>
  );
}
