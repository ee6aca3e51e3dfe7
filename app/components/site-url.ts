type RootMatch = { id: string; loaderData?: unknown } | undefined;

/** SITE_URL as the root loader gave it, for a route's meta function. */
export function siteUrlFromMatches(matches: RootMatch[]): string {
  const data = matches.find((match) => match?.id === "root")?.loaderData as { siteUrl?: string } | undefined;
  return data?.siteUrl ?? "";
}
