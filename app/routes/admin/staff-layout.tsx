import { Outlet } from "react-router";
import { NewVersionNotice, useOfflineDocumentLinks, useStaffServiceWorker } from "~/components/staff/staff-app";
import { StaffErrorScreen } from "~/components/staff/staff-error-screen";
import { StaffFrame } from "~/components/staff/staff-frame";
import { staffFrameHandle } from "~/components/staff/staff-frame-handle";
import type { StaffNavEntry } from "~/components/staff/staff-navigation";
import { WaitingForms } from "~/components/staff/waiting-forms";
import { staffToolLinks } from "~/features/quick-links.server";
import { keptPagesOwnerOf, signedInStaff, staffMiddleware } from "~/services/auth/require-staff.server";
import type { Route } from "./+types/staff-layout";

export const handle = staffFrameHandle;

/** The staff area installs as an app of its own (decision 0904); the public pages have no manifest. */
export const links: Route.LinksFunction = () => [{ rel: "manifest", href: "/admin/manifest.webmanifest" }];

// A form sent while the server is down, or signed out, keeps its page instead of the error screen.
export { revalidateUnlessAnsweredByBrowser as shouldRevalidate } from "~/forms/form-route";

/** Signs the request in once for every screen below; their loaders and actions read the user it found. */
export const middleware: Route.MiddlewareFunction[] = [staffMiddleware];

export function loader({ context }: Route.LoaderArgs) {
  const user = signedInStaff(context);
  return {
    userId: user.id,
    displayName: user.displayName,
    isAdmin: user.role === "admin",
    tools: staffToolLinks,
    keptPagesOwner: keptPagesOwnerOf(user),
  };
}

/** The staff screens that exist, the tools among them read from the Quick Links cards. */
function staffNavigation(tools: readonly StaffNavEntry[], isAdmin: boolean): StaffNavEntry[] {
  return [
    { label: "Quick Links", path: "/admin/quick-links" },
    { label: "Inbox", path: "/admin/inbox" },
    ...tools,
    ...(isAdmin ? [{ label: "Staff accounts", path: "/admin/staff" }] : []),
    // Two-step verification is one of Your settings.
    { label: "Your settings", path: "/admin/account" },
  ];
}

/** Every signed-in staff screen sits in the staff frame. */
export default function StaffLayout({ loaderData }: Route.ComponentProps) {
  const switchToNewVersion = useStaffServiceWorker(
    ["/admin/quick-links", ...loaderData.tools.map((tool) => tool.path)],
    loaderData.keptPagesOwner,
  );
  useOfflineDocumentLinks();
  return (
    <StaffFrame
      user={{ id: loaderData.userId, displayName: loaderData.displayName }}
      navigation={staffNavigation(loaderData.tools, loaderData.isAdmin)}
    >
      {switchToNewVersion ? <NewVersionNotice onReload={switchToNewVersion} /> : null}
      <WaitingForms userId={loaderData.userId} />
      <Outlet />
    </StaffFrame>
  );
}

/**
 * A 404, 403 or failure in a staff screen keeps the staff frame and its navigation. When this layout's own
 * loader failed there is no user to show, and the navigation leaves out the admins' entry.
 */
export function ErrorBoundary({ error, loaderData }: Route.ErrorBoundaryProps) {
  return (
    <StaffFrame
      user={loaderData ? { id: loaderData.userId, displayName: loaderData.displayName } : undefined}
      navigation={staffNavigation(loaderData?.tools ?? [], loaderData?.isAdmin ?? false)}
    >
      <StaffErrorScreen error={error} />
    </StaffFrame>
  );
}
