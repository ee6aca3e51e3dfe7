import path from "node:path";
import { build } from "esbuild";
import type { Plugin } from "vite";

/**
 * `import source from "virtual:inline-script/<entry>"`: the entry module (a path under the project root),
 * bundled and minified for the browser, as a string to inline into a page. For pages that render without
 * React's hydration scripts: their few behaviours come as one small script in the HTML, with no request of
 * its own.
 */
export function inlineScript(projectRoot: string): Plugin {
  const PREFIX = "virtual:inline-script/";
  const RESOLVED = `\0${PREFIX}`;
  return {
    name: "inline-script",
    resolveId(id) {
      return id.startsWith(PREFIX) ? `${RESOLVED}${id.slice(PREFIX.length)}` : undefined;
    },
    async load(id) {
      if (!id.startsWith(RESOLVED)) return undefined;
      const entry = path.join(projectRoot, id.slice(RESOLVED.length));
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        minify: true,
        format: "esm",
        platform: "browser",
        target: "es2022",
        write: false,
        metafile: true,
        tsconfig: path.join(projectRoot, "tsconfig.json"),
        logLevel: "warning",
      });
      for (const input of Object.keys(result.metafile.inputs)) this.addWatchFile(path.join(projectRoot, input));
      const code = result.outputFiles[0]?.text ?? "";
      // Inside an inline <script>, a "</script" in the code would end the element early.
      return `export default ${JSON.stringify(code.replaceAll("</script", "<\\/script"))};`;
    },
  };
}
