import { createContext, useContext } from "react";
import type { SiteChrome } from "~/content/site-chrome";

/** The published company facts and menu labels, as the root loader gave them (root.tsx provides them). */
export const SiteChromeContext = createContext<SiteChrome | undefined>(undefined);

export function useSiteChrome(): SiteChrome {
  const chrome = useContext(SiteChromeContext);
  if (!chrome) throw new Error("useSiteChrome needs the root layout's SiteChromeContext");
  return chrome;
}

type RootMatch = { id: string; loaderData?: unknown } | undefined;

/** The company facts and menu labels as the root loader gave them, for a route's meta function. */
export function siteChromeFromMatches(matches: RootMatch[]): SiteChrome {
  const data = matches.find((match) => match?.id === "root")?.loaderData as { chrome?: SiteChrome } | undefined;
  if (!data?.chrome) throw new Error("The root loader gave no site chrome");
  return data.chrome;
}
