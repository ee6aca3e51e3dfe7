/** A browser entry bundled and minified at build time, as a string to inline (vite-plugins/inline-script.ts). */
declare module "virtual:inline-script/*" {
  const source: string;
  export default source;
}
