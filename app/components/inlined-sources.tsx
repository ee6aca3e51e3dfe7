import { createContext, useContext } from "react";

/**
 * What the server writes inline into a page: the stylesheets and the marketing pages' one script. The server's
 * entry (entry.server.tsx) provides them, so they stay out of the browser's bundle, where the root route would
 * otherwise carry some 110 KB of them to every React page. In the browser a page keeps what the server wrote.
 */
export type InlinedSources = {
  stylesheets: { publicPages: string; site: string };
  publicPageScript: string;
};

export const InlinedSourcesContext = createContext<InlinedSources | undefined>(undefined);

export const useInlinedSources = () => useContext(InlinedSourcesContext);

/**
 * In the browser, the text the server wrote into the element: rendering it again, even from scratch after a
 * failed hydration, writes the same text back instead of emptying it.
 */
export function textWrittenByServer(elementId: string): string {
  return typeof document === "undefined" ? "" : (document.getElementById(elementId)?.textContent ?? "");
}
