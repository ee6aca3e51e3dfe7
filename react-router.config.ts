import type { Config } from "@react-router/dev/config";
import { publicPagePaths } from "./app/content/public-pages";

export default {
  ssr: true,
  prerender: [...publicPagePaths],
} satisfies Config;
