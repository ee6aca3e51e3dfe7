// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of the client build, so the server
// picks one by the browser's Accept-Encoding and does no compression work per request (server/static-files.ts).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const COMPRESSIBLE = /\.(html|js|mjs|css|data|svg|xml|txt|json|webmanifest)$/;
/** Below this a compressed copy saves less than the headers that announce it. */
const MINIMUM_BYTES = 256;

export function precompress(clientDir) {
  let files = 0;
  for (const entry of readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const content = readFileSync(file);
    if (content.length < MINIMUM_BYTES) continue;
    const brotli = brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    });
    const gzip = gzipSync(content, { level: 9 });
    if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli);
    if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip);
    files++;
  }
  return files;
}
