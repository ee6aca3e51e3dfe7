import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub, UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { siteChromeOf } from "./content/site-chrome";
import { defaultSiteContent } from "./content/site-content";
import { ErrorBoundary } from "./root";

function EmptyPage() {
  return null;
}

/** Renders the root error boundary as the router shows it when a route has failed with `error`. */
function renderErrorScreen(error: unknown, rootData?: unknown): string {
  const Stub = createRoutesStub([
    // The stub's route props are looser than the generated Route.ErrorBoundaryProps; the component only reads `error`.
    { id: "root", path: "/", ErrorBoundary: ErrorBoundary as never, Component: EmptyPage },
  ]);
  return renderToStaticMarkup(
    <Stub initialEntries={["/"]} hydrationData={{ errors: { root: error }, loaderData: { root: rootData } }} />,
  );
}

describe("the root error boundary", () => {
  it("shows Unexpected Application Error! with the published office phone for a thrown error, and no internals", () => {
    const published = { ...defaultSiteContent, company: { ...defaultSiteContent.company, phone: "(803) 555-0199" } };
    const html = renderErrorScreen(new Error("database password leaked in this message"), {
      chrome: siteChromeOf(published),
    });
    expect(html).toContain("Unexpected Application Error!");
    expect(html).toContain("call us at (803) 555-0199");
    expect(html).not.toContain("database password");
  });

  it("names no phone when the site's content did not reach the page, rather than one that may be out of date", () => {
    const html = renderErrorScreen(new Error("the root loader failed"));
    expect(html).toContain("Something went wrong on our side. Please try again.");
    expect(html).not.toContain("call us");
  });

  it("shows the friendly not-found page for a 404", () => {
    const html = renderErrorScreen(new ErrorResponse(404, "Not Found", null));
    expect(html).toContain("We couldn&#x27;t find that page");
    expect(html).not.toContain("Unexpected Application Error!");
    expect(html).toContain('href="/"');
  });
});
