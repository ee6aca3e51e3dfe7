import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHUNK_BYTES,
  decodeBackupKey,
  openSealedFile,
  SealedFileError,
  sealedLength,
  sealFile,
} from "./backup-encryption.server";

const keyOf = (text: string) => {
  const key = decodeBackupKey(text);
  if (!key) throw new Error("not a key");
  return key;
};
const key = keyOf(randomBytes(32).toString("base64"));
let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "tce-sealed-"));
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

/** Seals `plain` into a file; resolves with its bytes and where the chunks start. */
async function sealed(plain: Buffer, name: string) {
  const from = path.join(workDir, `${name}.plain`);
  const to = path.join(workDir, `${name}.sealed`);
  await writeFile(from, plain);
  await sealFile(key, from, to);
  const bytes = await readFile(to);
  const headerEnd = bytes.indexOf(0x0a, bytes.indexOf(0x0a) + 1) + 1;
  return { bytes, headerEnd, chunk: (index: number) => headerEnd + index * (CHUNK_BYTES + 16) };
}

async function opened(bytes: Buffer, name: string, withKey = key): Promise<Buffer> {
  const file = path.join(workDir, `${name}.tampered`);
  const out = path.join(workDir, `${name}.opened`);
  await writeFile(file, bytes);
  await openSealedFile(withKey, file, out);
  return readFile(out);
}

async function refused(bytes: Buffer, name: string, message: RegExp, withKey = key): Promise<void> {
  await expect(opened(bytes, name, withKey)).rejects.toThrow(message);
  await expect(opened(bytes, name, withKey)).rejects.toBeInstanceOf(SealedFileError);
  expect(existsSync(path.join(workDir, `${name}.opened`))).toBe(false);
}

describe("a sealed file", () => {
  it("opens to exactly what was sealed, at every size around a chunk's, and is as long as sealedLength says", async () => {
    for (const size of [0, 1, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 3 * CHUNK_BYTES, 3 * CHUNK_BYTES + 17]) {
      const plain = randomBytes(size);
      const { bytes } = await sealed(plain, `size-${size}`);
      expect(bytes.length).toBe(sealedLength(size));
      expect(Buffer.compare(await opened(bytes, `size-${size}`), plain)).toBe(0);
      if (size >= 64) expect(bytes.includes(plain.subarray(0, 64))).toBe(false);
    }
  });

  it("holds no plaintext: a known name sealed is nowhere in its bytes", async () => {
    const plain = Buffer.from("Customer: Marguerite Okonkwo-Delacroix, 12 Pine St\n".repeat(5000));
    const { bytes } = await sealed(plain, "name");
    expect(bytes.includes(Buffer.from("Marguerite"))).toBe(false);
  });

  it("is refused when one byte is flipped, it is cut short, chunks are swapped, dropped, repeated or spliced, or its header edited", async () => {
    const plain = randomBytes(4 * CHUNK_BYTES + 100);
    const { bytes, chunk } = await sealed(plain, "whole");
    const other = await sealed(randomBytes(4 * CHUNK_BYTES + 100), "other");
    const chunkBytes = CHUNK_BYTES + 16;
    const cut = (from: number, to: number) => bytes.subarray(from, to);

    const flipped = Buffer.from(bytes);
    flipped[chunk(2) + 5] = (flipped[chunk(2) + 5] ?? 0) ^ 0x01;
    await refused(flipped, "flipped", /fails its check at part 3/);

    await refused(cut(0, chunk(3)), "cut-at-a-chunk", /fails its check at part 3/);
    await refused(cut(0, chunk(3) + 1000), "cut-mid-chunk", /fails its check at part 4/);
    await refused(cut(0, chunk(0) + 10), "cut-in-the-first", /is cut short/);

    const swapped = Buffer.concat([
      cut(0, chunk(1)),
      cut(chunk(2), chunk(3)),
      cut(chunk(1), chunk(2)),
      cut(chunk(3), bytes.length),
    ]);
    await refused(swapped, "swapped", /fails its check at part 2/);
    await refused(Buffer.concat([cut(0, chunk(1)), cut(chunk(2), bytes.length)]), "dropped", /at part 2/);
    await refused(Buffer.concat([cut(0, chunk(2)), cut(chunk(1), bytes.length)]), "repeated", /at part 3/);
    const spliced = Buffer.concat([
      cut(0, chunk(1)),
      other.bytes.subarray(chunk(1), chunk(1) + chunkBytes),
      cut(chunk(2), bytes.length),
    ]);
    await refused(spliced, "spliced", /at part 2/);
    await refused(Buffer.concat([bytes, other.bytes.subarray(chunk(4))]), "appended", /at part 5/);

    const header = bytes.subarray(0, chunk(0)).toString("latin1");
    const edited = Buffer.concat([
      Buffer.from(header.replace(/"salt":"./, '"salt":"A'), "latin1"),
      cut(chunk(0), bytes.length),
    ]);
    await refused(edited, "header", /fails its check at part 1/);
  });

  it("names the key it needs when opened with another, and is not taken for a file of another kind", async () => {
    const { bytes } = await sealed(randomBytes(1000), "keyed");
    const other = keyOf(randomBytes(32).toString("hex"));
    await refused(
      bytes,
      "other-key",
      new RegExp(`was sealed with another key \\(key id ${key.id}; BACKUP_ENCRYPTION_KEY's is ${other.id}\\)`),
      other,
    );
    await refused(Buffer.from("TRI-COUNTY-ELECTRIC BACKUP 1\n{}\n"), "plain", /is not a sealed backup of this app/);
    expect((await stat(path.join(workDir, "keyed.sealed"))).mode & 0o777).toBe(0o600);
  });
});
