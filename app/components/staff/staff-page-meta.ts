import type { MetaDescriptor } from "react-router";
import { publishedCompanyName } from "~/content/published-company";

/** Staff pages have a title and stay out of search engines. */
export function staffPageMeta(title: string): MetaDescriptor[] {
  return [{ title: `${title} | ${publishedCompanyName()}` }, { name: "robots", content: "noindex, nofollow" }];
}
