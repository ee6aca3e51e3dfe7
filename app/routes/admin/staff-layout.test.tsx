import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub, UNSAFE_ErrorResponseImpl as ErrorResponse, Outlet } from "react-router";
import { describe, expect, it } from "vitest";
import { ErrorBoundary } from "./staff-layout";

function FailingScreen() {
  return null;
}

/** Renders the staff layout's error boundary as the router shows it when a staff screen failed with `error`. */
function renderStaffError(error: unknown, user: { displayName: string; isAdmin: boolean } | undefined): string {
  const tools = [{ label: "Team Communication", path: "/admin/quick-links/team-communication" }];
  const Stub = createRoutesStub([
    {
      id: "staff-layout",
      // The stub's route props are looser than the generated Route.ErrorBoundaryProps; the boundary reads
      // `error` and `loaderData`, which the stub passes.
      ErrorBoundary: ErrorBoundary as never,
      Component: Outlet,
      children: [{ id: "screen", path: "/admin/inbox/:id", Component: FailingScreen }],
    },
  ]);
  return renderToStaticMarkup(
    <Stub
      initialEntries={["/admin/inbox/1"]}
      hydrationData={{
        loaderData: user ? { "staff-layout": { ...user, tools } } : {},
        // Raised at the layout itself: the stub does not carry a child's error up to the layout's boundary.
        errors: { "staff-layout": error },
      }}
    />,
  );
}

describe("the staff layout's error boundary", () => {
  it("keeps the staff navigation and the signed-in user around a 404", () => {
    const html = renderStaffError(new ErrorResponse(404, "Not Found", null), {
      displayName: "Robin Smith",
      isAdmin: true,
    });
    expect(html).toContain('aria-label="Staff"');
    expect(html).toContain("Staff accounts");
    expect(html).toContain("Robin Smith");
    expect(html).toContain("Log out");
    expect(html).toContain("We couldn&#x27;t find that page");
  });

  it("says Unexpected Application Error! for a thrown error, with none of its text, and keeps the navigation", () => {
    const html = renderStaffError(new Error("relation staff_users: password leaked here"), {
      displayName: "Robin Smith",
      isAdmin: false,
    });
    expect(html).toContain("Unexpected Application Error!");
    expect(html).toContain('aria-label="Staff"');
    expect(html).not.toContain("Staff accounts");
    expect(html).not.toContain("password leaked");
    expect(html).not.toMatch(/\.(ts|tsx|js):\d+/);
  });

  it("still shows the navigation when the layout's own loader failed and no user is known", () => {
    const html = renderStaffError(new Error("the database is down"), undefined);
    expect(html).toContain('aria-label="Staff"');
    expect(html).toContain("Unexpected Application Error!");
    expect(html).not.toContain("the database is down");
  });
});
