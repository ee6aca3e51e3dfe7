/** The SITE_URL of `npm run cluster`: the one given, else the address its nginx listens on. */
export function clusterSiteUrl(given: string | undefined, listenPort: number): string {
  return given || `http://127.0.0.1:${listenPort}`;
}
