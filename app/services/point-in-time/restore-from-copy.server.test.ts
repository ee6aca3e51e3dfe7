import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeBackupKey, sealFile } from "../backup/backup-encryption.server";
import { restoreCommand } from "../db/wal-archiving.server";
import { fetchCopiesForRestore } from "./archive-copy.server";

const run = promisify(execFile);
const keyText = randomBytes(32).toString("base64");
const key =
  decodeBackupKey(keyText) ??
  (() => {
    throw new Error("the test key does not decode");
  })();
const BASE = "base-20261201T000000.000Z";
const START_WAL = "000000010000000000000002";
let workDir: string;
const savedEnv = { ...process.env };
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "tce-restore-from-copy-"));
  // The copy is a folder on this machine: rclone needs no remote for it.
  process.env.RCLONE_CONFIG = "/dev/null";
});
afterAll(async () => {
  process.env = savedEnv;
  await rm(workDir, { recursive: true, force: true });
});

/**
 * A copy as the archive copy job lays it out (BACKUP_COPY_TO/base and /wal), each file sealed with the key: a base
 * backup whose folder `fill` makes (then tarred with `tarArgs`), and the WAL files named.
 */
async function copyPlace(
  name: string,
  options: {
    fill?: (backup: string, staging: string) => Promise<void>;
    tarArgs?: string[];
    wal?: Record<string, Buffer>;
  } = {},
): Promise<string> {
  const destination = path.join(workDir, name, "copy");
  const staging = path.join(workDir, name, "staging");
  const backup = path.join(staging, BASE);
  await mkdir(path.join(backup, "postgres", "global"), { recursive: true });
  await mkdir(path.join(destination, "base"), { recursive: true });
  await mkdir(path.join(destination, "wal"), { recursive: true });
  const manifest = JSON.stringify({
    startedAt: "2026-12-01T00:00:00Z",
    finishedAt: "2026-12-01T00:00:05Z",
    startWalFile: START_WAL,
  });
  await writeFile(path.join(backup, "base-backup.json"), manifest);
  await writeFile(path.join(backup, "postgres", "PG_VERSION"), "18\n");
  await options.fill?.(backup, staging);
  const tar = path.join(workDir, name, "base.tar");
  await run("tar", ["-C", staging, "-cf", tar, ...(options.tarArgs ?? [BASE])]);
  await sealFile(key, tar, path.join(destination, "base", `${BASE}.tar`));
  await sealFile(key, path.join(backup, "base-backup.json"), path.join(destination, "base", `${BASE}.json`));
  for (const [file, bytes] of Object.entries(options.wal ?? {})) {
    const plain = path.join(workDir, name, file);
    await writeFile(plain, bytes);
    await sealFile(key, plain, path.join(destination, "wal", file));
  }
  return destination;
}

const fetchInto = (destination: string, folder: string) =>
  fetchCopiesForRestore({ destination, key, target: "latest", folder });

describe("a restore from the copy off the machine", () => {
  it("fetches only WAL files, by their names, each opened and checked", async () => {
    const wal: Record<string, Buffer> = {
      [`${START_WAL}.gz`]: gzipSync("segment 2"),
      "000000010000000000000003.gz": gzipSync("segment 3"),
      "000000010000000000000003.partial.gz": gzipSync("partial 3"),
      "000000010000000000000002.00000028.backup.gz": gzipSync("backup history"),
      "00000002.history.gz": gzipSync("timeline history"),
      "000000010000000000000001.gz": gzipSync("before the base backup"),
      "postgresql.auto.conf.gz": gzipSync("restore_command = 'curl evil'"),
      "evil.gz": gzipSync("not a WAL file"),
      "000000010000000000000004.gz.sh": gzipSync("not a WAL file either"),
      "00000001000000000000000g.gz": gzipSync("lower case is not PostgreSQL's"),
    };
    const destination = await copyPlace("names", { wal });
    const folder = path.join(workDir, "names", "restore");
    await fetchInto(destination, folder);
    const fetched = (await readdir(path.join(folder, "wal"))).sort();
    expect(fetched).toEqual(
      [
        `${START_WAL}.gz`,
        "000000010000000000000002.00000028.backup.gz",
        "000000010000000000000003.gz",
        "000000010000000000000003.partial.gz",
        "00000002.history.gz",
      ].sort(),
    );
    for (const file of fetched) expect(await readFile(path.join(folder, "wal", file))).toEqual(wal[file]);
    expect(existsSync(path.join(folder, "sealed"))).toBe(false);
  });

  it("refuses a WAL file that fails its check, naming it", async () => {
    const destination = await copyPlace("bad-wal", { wal: { [`${START_WAL}.gz`]: gzipSync("segment 2") } });
    const sealed = path.join(destination, "wal", `${START_WAL}.gz`);
    const bytes = await readFile(sealed);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
    await writeFile(sealed, bytes);
    await expect(fetchInto(destination, path.join(workDir, "bad-wal", "restore"))).rejects.toThrow(
      `the copy's wal/${START_WAL}.gz fails its check at part 1: it was changed, cut short or damaged after it was written`,
    );
  });

  it("unpacks the base backup without its owners, modes or set-uid bits: folders 0700, files 0600", async () => {
    const destination = await copyPlace("modes", {
      fill: async (backup) => {
        const setUid = path.join(backup, "postgres", "global", "set-uid-program");
        await writeFile(setUid, "#!/bin/sh\n");
        await chmod(setUid, 0o4755);
        await chmod(path.join(backup, "postgres", "global"), 0o2777);
      },
      tarArgs: ["--owner=4242", "--group=4242", BASE],
    });
    const folder = path.join(workDir, "modes", "restore");
    await fetchInto(destination, folder);
    const unpacked = path.join(folder, "base", BASE);
    const setUid = await stat(path.join(unpacked, "postgres", "global", "set-uid-program"));
    expect(setUid.mode & 0o7777).toBe(0o600);
    expect(setUid.uid).toBe(process.getuid?.());
    for (const directory of [unpacked, path.join(unpacked, "postgres"), path.join(unpacked, "postgres", "global")])
      expect((await stat(directory)).mode & 0o7777).toBe(0o700);
    expect(await readFile(path.join(unpacked, "postgres", "PG_VERSION"), "utf8")).toBe("18\n");
    expect(existsSync(path.join(folder, "base", `${BASE}.tar`))).toBe(false);
  });

  it("refuses a base backup holding a `../` name, an absolute name or a link, and unpacks nothing", async () => {
    const outside = path.join(workDir, "outside");
    await mkdir(outside, { recursive: true });
    const cases = {
      parent: {
        fill: (_backup: string, staging: string) => writeFile(path.join(staging, "..", "escaped.txt"), "escaped"),
        tarArgs: ["-P", BASE, "../escaped.txt"],
        entry: "../escaped.txt",
      },
      absolute: {
        fill: () => writeFile(path.join(outside, "absolute.txt"), "absolute"),
        tarArgs: ["-P", BASE, path.join(outside, "absolute.txt")],
        entry: path.join(outside, "absolute.txt"),
      },
      link: {
        fill: (backup: string) => symlink("/etc", path.join(backup, "postgres", "etc")),
        tarArgs: [BASE],
        entry: `${BASE}/postgres/etc`,
      },
    };
    for (const [name, { fill, tarArgs, entry }] of Object.entries(cases)) {
      const destination = await copyPlace(name, { fill, tarArgs });
      const folder = path.join(workDir, name, "restore");
      await rm(path.join(outside, "absolute.txt"), { force: true });
      await expect(fetchInto(destination, folder)).rejects.toThrow(
        `the copy ${BASE}.tar holds "${entry}", which is not a file or folder of ${BASE}: nothing was unpacked`,
      );
      expect(existsSync(path.join(folder, "base", BASE))).toBe(false);
      expect(existsSync(path.join(folder, "escaped.txt"))).toBe(false);
      expect(existsSync(path.join(folder, "base", "escaped.txt"))).toBe(false);
      expect(existsSync(path.join(outside, "absolute.txt"))).toBe(false);
    }
  });
});

describe("the restore_command PostgreSQL runs", () => {
  it("reads back an archived file by its WAL name, and refuses any other name before making a path of it", async () => {
    const archive = path.join(workDir, "archive", "wal");
    await mkdir(archive, { recursive: true });
    await writeFile(path.join(archive, `${START_WAL}.gz`), gzipSync("segment 2"));
    await writeFile(path.join(archive, "..", "secret.gz"), gzipSync("not WAL"));
    // PostgreSQL puts the file's name for %f and where it wants it for %p, then runs the command with sh.
    const restore = async (name: string) => {
      const wanted = path.join(workDir, "archive", `wanted-${name.replaceAll("/", "_")}`);
      const command = restoreCommand(archive).replaceAll("%f", name).replaceAll("%p", wanted);
      const code = await run("sh", ["-c", command]).then(
        () => 0,
        (error: { code: number }) => error.code,
      );
      return { code, wanted: existsSync(wanted) ? await readFile(wanted, "utf8") : undefined };
    };
    expect(await restore(START_WAL)).toEqual({ code: 0, wanted: "segment 2" });
    expect((await restore("000000010000000000000009")).code).not.toBe(0);
    for (const name of ["../secret", "secret", `${START_WAL}/../../secret`]) {
      const result = await restore(name);
      expect(result.code).not.toBe(0);
      expect(result.wanted).toBeUndefined();
    }
  });
});
