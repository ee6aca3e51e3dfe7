export const STAFF_HOME = "/admin/quick-links";

/**
 * Where to send someone after signing in: the path they asked for when it is a path on this site, and the
 * dashboard otherwise. `//evil.example`, `/\evil.example`, `https://…` and `javascript:` all land on the dashboard.
 */
export function safeRedirectTarget(target: string | null | undefined): string {
  if (!target?.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return STAFF_HOME;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001F\u007F]/.test(target)) return STAFF_HOME;
  const base = "http://this.site";
  const resolved = new URL(target, base);
  if (resolved.origin !== base) return STAFF_HOME;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}

/** The sign-in page, remembering the page the visitor wanted. */
export function loginPathFor(url: URL): string {
  return `/admin?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
}
