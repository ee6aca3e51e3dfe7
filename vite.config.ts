import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { clientChunks } from "./vite-plugins/client-chunks";
import { featureIndex } from "./vite-plugins/feature-index";
import { inlineScript } from "./vite-plugins/inline-script";

const projectRoot = new URL(".", import.meta.url).pathname;

export default defineConfig({
  plugins: [featureIndex(projectRoot), tailwindcss(), inlineScript(projectRoot), clientChunks(), reactRouter()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
});
