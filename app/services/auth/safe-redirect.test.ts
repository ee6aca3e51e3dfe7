import { describe, expect, it } from "vitest";
import { loginPathFor, STAFF_HOME, safeRedirectTarget } from "./safe-redirect";

describe("the target after signing in", () => {
  it.each([
    ["/admin/staff", "/admin/staff"],
    ["/admin/inbox?type=estimate&page=2", "/admin/inbox?type=estimate&page=2"],
    ["/admin", "/admin"],
    ["/admin/inbox/../staff", "/admin/staff"],
  ])("follows the staff page %j", (target, expected) => {
    expect(safeRedirectTarget(target)).toBe(expected);
  });

  it.each([
    // Each of these resolves to a path starting with `//`, which a browser reads as another host.
    ["/.//evil.example"],
    ["/%2e//evil.example"],
    ["/a/..//evil.example"],
    ["/./\\evil.example"],
    ["/admin/..//evil.example"],
    ["/admin/%2e%2e//evil.example"],
    ["//evil.example/phish"],
    ["/\\evil.example"],
    ["https://evil.example/"],
    ["javascript:alert(1)"],
    ["/admin\u0000"],
    // Local, but not a staff page: nothing outside /admin is a place to land after signing in.
    ["/learnmore"],
    ["/administrator"],
    [""],
    [null],
  ])("sends %j to the dashboard", (target) => {
    expect(safeRedirectTarget(target)).toBe(STAFF_HOME);
  });
});

describe("the sign-in page's way back", () => {
  it.each([
    ["http://this.site/admin/inbox?type=estimate", "/admin/inbox?type=estimate"],
    // A data request's list of routes to load is not part of the page a person returns to.
    ["http://this.site/admin/quick-links?_routes=routes%2Fadmin%2Fquick-links", "/admin/quick-links"],
    ["http://this.site/admin/inbox?_routes=routes%2Fadmin%2Finbox&page=2", "/admin/inbox?page=2"],
  ])("from %s returns to %s", (url, page) => {
    expect(loginPathFor(new URL(url))).toBe(`/admin?redirectTo=${encodeURIComponent(page)}`);
  });
});
