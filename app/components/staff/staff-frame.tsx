import { useContext } from "react";
import { Link } from "react-router";
import { registerBackgroundSync } from "~/forms/background-sync";
import { CompanyMarkIcon } from "../company-mark";
import { useNonce } from "../nonce";
import { SiteChromeContext } from "../site-chrome";
import { NATIVE_SEND_GUARD_SCRIPT } from "./native-send-guard";
import { LOGOUT_PATH, logOutOrKeep, SEND_PENDING_LOGOUT } from "./pending-logout";
import { leaveDevice } from "./staff-app";
import { type StaffNavEntry, StaffNavigation } from "./staff-navigation";

type StaffFrameProps = {
  /** The signed-in user; the sign-in screens have none, and show only the company mark. */
  user?: { id: number; displayName: string };
  navigation?: readonly StaffNavEntry[];
  children: React.ReactNode;
};

/**
 * Logging out clears what the device keeps of the person first, then ends the session. Without signal the
 * logout is kept for the staff app's worker, which shows that the device is logged out and tells the server
 * once it can; without that worker's storage, the form posts as it does without JavaScript.
 */
const logOut = (userId: number) => (event: React.FormEvent<HTMLFormElement>) => {
  event.preventDefault();
  const form = event.currentTarget;
  void leaveDevice(userId).then(async (leave) => {
    if (!leave) return;
    if (!("caches" in window)) return form.submit();
    if (await logOutOrKeep()) return window.location.assign("/admin");
    await registerBackgroundSync(SEND_PENDING_LOGOUT);
    window.location.assign("/admin/quick-links");
  });
};

/**
 * The compact app frame of the staff area, in place of the public site's header and footer: the company mark,
 * the staff navigation, and who is signed in with the way out. One bar high on a phone too.
 */
export function StaffFrame({ user, navigation = [], children }: StaffFrameProps) {
  const nonce = useNonce();
  // Missing only when the root loader failed: the frame then shows the mark without the name.
  const shortName = useContext(SiteChromeContext)?.company.shortName;
  return (
    <>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own script, a constant */}
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: NATIVE_SEND_GUARD_SCRIPT }} />
      <header className="staff-header sticky top-0 z-40 border-b border-slate-200 bg-white">
        {/* One bar on a phone; from 1280 px the navigation's row wraps onto a line of its own below. */}
        <div className="mx-auto flex min-h-14 max-w-7xl items-center gap-x-3 xl:flex-wrap px-4 sm:px-6">
          <Link
            to={user ? "/admin/quick-links" : "/"}
            className="flex h-14 min-w-11 shrink-0 items-center gap-2 font-extrabold tracking-tight text-slate-900"
          >
            <CompanyMarkIcon />
            <span className="sr-only xl:not-sr-only">{shortName}</span>
            <span className="max-sm:sr-only rounded bg-brand-100 px-1.5 py-0.5 text-xs font-bold tracking-wider text-brand-900 uppercase">
              Staff
            </span>
          </Link>
          {navigation.length > 0 ? <StaffNavigation entries={navigation} /> : null}
          {user ? (
            <div className="ml-auto flex min-w-0 items-center gap-3">
              {/* On a phone the name goes under "Signed in as", cut short if it is long, to keep one bar. */}
              <p className="min-w-0 text-xs leading-tight text-slate-700 sm:text-sm max-sm:[&>strong]:block max-sm:[&>strong]:truncate">
                Signed in as <strong>{user.displayName}</strong>
              </p>
              <form method="post" action={LOGOUT_PATH} className="shrink-0" onSubmit={logOut(user.id)}>
                <button type="submit" className="button-secondary px-3 py-1 text-sm">
                  Log out
                </button>
              </form>
            </div>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
    </>
  );
}
