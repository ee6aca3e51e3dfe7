import { index, type RouteConfig, route } from "@react-router/dev/routes";
import { servicePages } from "./content/services";

export default [
  index("routes/home.tsx"),
  route("learnmore", "routes/about.tsx"),
  ...servicePages.map((page) => route(page.path.slice(1), "routes/service.tsx", { id: `service-${page.id}` })),
  route("apply", "routes/apply.tsx"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
] satisfies RouteConfig;
