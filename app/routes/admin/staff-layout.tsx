import { Form, NavLink, Outlet } from "react-router";
import { requireStaff } from "~/server/auth/require-staff.server";
import type { Route } from "./+types/staff-layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireStaff(request, context);
  return { username: user.username, isAdmin: user.role === "admin" };
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-full px-3 py-1.5 font-medium ${isActive ? "bg-brand-800 text-white" : "text-brand-900 hover:bg-brand-100"}`;

/** The bar above every signed-in staff screen: where to go, who is signed in, and the way out. */
export default function StaffLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <nav aria-label="Staff" className="border-b border-brand-100 bg-brand-50">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-2 px-4 py-2 sm:px-6">
          <NavLink to="/admin/quick-links" className={navLinkClass}>
            Quick Links
          </NavLink>
          <NavLink to="/admin/inbox" className={navLinkClass}>
            Inbox
          </NavLink>
          {loaderData.isAdmin ? (
            <NavLink to="/admin/staff" className={navLinkClass}>
              Staff accounts
            </NavLink>
          ) : null}
          <NavLink to="/admin/account/two-factor" className={navLinkClass}>
            Two-step verification
          </NavLink>
          <span className="ml-auto text-sm text-slate-700">
            Signed in as <strong>{loaderData.username}</strong>
          </span>
          <Form method="post" action="/admin/logout">
            <button type="submit" className="button-secondary px-4 py-1.5 text-sm">
              Log out
            </button>
          </Form>
        </div>
      </nav>
      <Outlet />
    </>
  );
}
