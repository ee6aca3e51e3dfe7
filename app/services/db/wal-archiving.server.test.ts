import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { archiveCommand, restoreCommand } from "./wal-archiving.server";

let workDir: string;
let archive: string;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "tce-wal-archiving-"));
  archive = path.join(workDir, "it's 100% archive");
  await mkdir(archive);
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

/** Runs a command as PostgreSQL does: /bin/sh -c, with %f and %p replaced. Resolves with its exit code. */
async function runAsPostgres(command: string, fileName: string, filePath: string): Promise<number> {
  const expanded = command.replaceAll("%f", fileName).replaceAll("%p", filePath).replaceAll("%%", "%");
  return promisify(execFile)("/bin/sh", ["-c", expanded]).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );
}

describe("the archive and restore commands", () => {
  const segment = "000000010000000000000003";

  it("archive a segment gzipped, read it back, and accept the same segment again", async () => {
    const source = path.join(workDir, segment);
    await writeFile(source, Buffer.concat([Buffer.from("WAL records"), Buffer.alloc(16 * 1024 * 1024)]));
    expect(await runAsPostgres(archiveCommand(archive), segment, source)).toBe(0);
    expect(existsSync(path.join(archive, `${segment}.gz`))).toBe(true);
    expect(existsSync(path.join(archive, `${segment}.gz.tmp`))).toBe(false);
    expect(await runAsPostgres(archiveCommand(archive), segment, source)).toBe(0);

    const restored = path.join(workDir, "RECOVERYXLOG");
    expect(await runAsPostgres(restoreCommand(archive), segment, restored)).toBe(0);
    expect(Buffer.compare(await readFile(restored), await readFile(source))).toBe(0);
  });

  it("never overwrite a different file of the same name, and fail so PostgreSQL keeps its segment", async () => {
    const different = path.join(workDir, "different");
    await writeFile(different, "other WAL records");
    const before = await readFile(path.join(archive, `${segment}.gz`));
    expect(await runAsPostgres(archiveCommand(archive), segment, different)).not.toBe(0);
    expect(Buffer.compare(await readFile(path.join(archive, `${segment}.gz`)), before)).toBe(0);
  });

  it("fail when the archive cannot be written, and for a file the archive does not hold", async () => {
    const gone = path.join(workDir, "gone");
    const source = path.join(workDir, "000000010000000000000004");
    await writeFile(source, "WAL");
    expect(await runAsPostgres(archiveCommand(gone), path.basename(source), source)).not.toBe(0);
    // A permission is no test as root, who writes anywhere: a "folder" that is a file cannot be written by anyone.
    await writeFile(path.join(workDir, "a-file"), "");
    expect(await runAsPostgres(archiveCommand(path.join(workDir, "a-file")), path.basename(source), source)).not.toBe(
      0,
    );

    const restored = path.join(workDir, "RECOVERYHISTORY");
    expect(await runAsPostgres(restoreCommand(archive), "00000002.history", restored)).not.toBe(0);
    expect(existsSync(restored)).toBe(false);
  });
});
