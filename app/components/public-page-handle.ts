/**
 * The route handle of a public marketing page (home, about, the service pages). The root layout gives such a
 * page the public pages' stylesheet, which leaves out the careers and staff areas' classes, and renders it
 * without React's hydration scripts: its one inlined script (public-page-script.ts) carries what it does.
 */
export const publicPageHandle = { page: "public" } as const;

export function isPublicPage(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && "page" in handle && handle.page === "public";
}
