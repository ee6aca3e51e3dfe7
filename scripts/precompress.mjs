// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of the client build, so the server
// picks one by the browser's Accept-Encoding and does no compression work per request (server/static-files.ts).
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const COMPRESSIBLE = /\.(html|js|mjs|css|data|svg|xml|txt|json|webmanifest)$/;
/** Below this a compressed copy saves less than the headers that announce it. */
const MINIMUM_BYTES = 256;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Compresses every file at once: zlib's asynchronous calls run on libuv's thread pool, so the files are
 * compressed on every core rather than one after another on this thread (brotli at quality 11 is most of it).
 */
export async function precompress(clientDir) {
  const entries = await readdir(clientDir, { recursive: true, withFileTypes: true });
  const compressed = await Promise.all(
    entries
      .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        const content = await readFile(file);
        if (content.length < MINIMUM_BYTES) return false;
        const [asBrotli, asGzip] = await Promise.all([
          brotli(content, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
          }),
          gzipped(content, { level: 9 }),
        ]);
        if (asBrotli.length < content.length) await writeFile(`${file}.br`, asBrotli);
        if (asGzip.length < content.length) await writeFile(`${file}.gz`, asGzip);
        return true;
      }),
  );
  return compressed.filter(Boolean).length;
}
