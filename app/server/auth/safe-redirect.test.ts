import { describe, expect, it } from "vitest";
import { STAFF_HOME, safeRedirectTarget } from "./safe-redirect";

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
