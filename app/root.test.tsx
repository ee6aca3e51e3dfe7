import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub, UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { ErrorBoundary } from "./root";

function EmptyPage() {
  return null;
}

/** Renders the root error boundary as the router shows it when a route has failed with `error`. */
function renderErrorScreen(error: unknown): string {
  const Stub = createRoutesStub([
    // The stub's route props are looser than the generated Route.ErrorBoundaryProps; the component only reads `error`.
    { id: "root", path: "/", ErrorBoundary: ErrorBoundary as never, Component: EmptyPage },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={["/"]} hydrationData={{ errors: { root: error } }} />);
}

describe("the root error boundary", () => {
  it("shows Unexpected Application Error! with the office phone for a thrown error, and no internals", () => {
    const html = renderErrorScreen(new Error("database password leaked in this message"));
    expect(html).toContain("Unexpected Application Error!");
    expect(html).toContain("(803) 555-0142");
    expect(html).not.toContain("database password");
  });

  it("shows the friendly not-found page for a 404", () => {
    const html = renderErrorScreen(new ErrorResponse(404, "Not Found", null));
    expect(html).toContain("We couldn&#x27;t find that page");
    expect(html).not.toContain("Unexpected Application Error!");
    expect(html).toContain('href="/"');
  });
});
