import type { MetaDescriptor } from "react-router";
import { company } from "~/content/company";

/** Staff pages have a title and stay out of search engines. */
export function staffPageMeta(title: string): MetaDescriptor[] {
  return [{ title: `${title} | ${company.name}` }, { name: "robots", content: "noindex, nofollow" }];
}
