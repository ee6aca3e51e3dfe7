import type { Config } from "@react-router/dev/config";
import { publicPagePaths } from "./app/content/public-pages";

export default {
  ssr: true,
  // The quiz needs no server, so it is prerendered too; it is a careers page, not in the sitemap.
  prerender: [...publicPagePaths, "/quiz"],
  // The staff routes sign their request in once, in a middleware (app/services/auth/require-staff.server.ts).
  future: { v8_middleware: true },
} satisfies Config;
