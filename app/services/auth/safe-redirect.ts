export const STAFF_HOME = "/admin/quick-links";

/**
 * Where to send someone after signing in: the staff page they asked for, and the dashboard otherwise. The
 * target is resolved first, as a browser would (dots, `%2e`, backslashes), and followed only when the result
 * is under `/admin`; so `/.//evil.example`, `//evil.example`, `https://…` and `javascript:` all land on the
 * dashboard.
 */
export function safeRedirectTarget(target: string | null | undefined): string {
  if (!target?.startsWith("/")) return STAFF_HOME;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001F\u007F]/.test(target)) return STAFF_HOME;
  const base = "http://this.site";
  let resolved: URL;
  try {
    resolved = new URL(target, base);
  } catch {
    return STAFF_HOME;
  }
  if (resolved.origin !== base) return STAFF_HOME;
  if (resolved.pathname !== "/admin" && !resolved.pathname.startsWith("/admin/")) return STAFF_HOME;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}

/**
 * The sign-in page, remembering the page the visitor wanted. React Router's data requests name the routes to
 * load in `_routes`, which is no part of the page: it is left out.
 */
export function loginPathFor(url: URL): string {
  const search = new URLSearchParams(url.search);
  search.delete("_routes");
  const query = search.size > 0 ? `?${search}` : "";
  return `/admin?redirectTo=${encodeURIComponent(url.pathname + query)}`;
}
