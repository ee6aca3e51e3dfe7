import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.server";
import { MARK_FILE, settleBackupDir } from "./backup-folder-mark.server";

/*
 * The former default BACKUP_DIR, `backups` beside DATA_DIR, kept by the site whose backups it holds. The cluster
 * and the archive are made of the bytes PostgreSQL puts there: pg_control starts with the system identifier, and a
 * WAL segment's first page carries it at offset 24.
 */
const OURS = 7716374655219096557n;
const THEIRS = 7716374655219096999n;
let workDir: string;

const identifierBytes = (id: bigint, at: number, length: number) => {
  const bytes = Buffer.alloc(length);
  bytes.writeBigUInt64LE(id, at);
  return bytes;
};

async function site(name: string, former: { wal?: bigint; mark?: bigint } | undefined) {
  const folder = await mkdtemp(path.join(workDir, `${name}-`));
  const dataDir = path.join(folder, "prod");
  await mkdir(path.join(dataDir, "postgres", "global"), { recursive: true });
  await writeFile(path.join(dataDir, "postgres", "global", "pg_control"), identifierBytes(OURS, 0, 8192));
  const formerDir = path.join(folder, "backups");
  if (former) await mkdir(path.join(formerDir, "wal"), { recursive: true });
  if (former?.wal) {
    const segment = gzipSync(identifierBytes(former.wal, 24, 8192));
    await writeFile(path.join(formerDir, "wal", "000000010000000000000003.gz"), segment);
  }
  if (former?.mark) {
    const mark = { systemIdentifier: former.mark.toString(), siteUrl: "http://localhost:3000", dataDir: "/elsewhere" };
    await writeFile(path.join(formerDir, MARK_FILE), JSON.stringify(mark));
  }
  const env = { DATA_DIR: dataDir };
  return { env, config: loadConfig(env), formerDir, newDir: `${dataDir}-backups` };
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "tce-former-default-"));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe("BACKUP_DIR unset, on a site that used the former default", () => {
  it("keeps the former folder while it holds this cluster's backups, by its WAL or its mark", async () => {
    for (const former of [{ wal: OURS }, { mark: OURS }, { wal: THEIRS, mark: OURS }, {}]) {
      const { env, config, formerDir } = await site("ours", former);
      expect(await settleBackupDir(config, env)).toEqual({
        config: { ...config, BACKUP_DIR: formerDir },
        formerDefault: true,
      });
    }
  });

  it("takes its own folder when the former one holds another cluster's backups, when the new one exists, or when BACKUP_DIR is set", async () => {
    for (const former of [{ wal: THEIRS }, { mark: THEIRS }, undefined]) {
      const { env, config, newDir } = await site("theirs", former);
      expect(config.BACKUP_DIR).toBe(newDir);
      expect(await settleBackupDir(config, env)).toEqual({ config, formerDefault: false });
    }
    const withNew = await site("new-exists", { wal: OURS });
    await mkdir(withNew.newDir);
    expect((await settleBackupDir(withNew.config, withNew.env)).formerDefault).toBe(false);
    const set = await site("set", { wal: OURS });
    const env = { ...set.env, BACKUP_DIR: path.join(workDir, "chosen") };
    const config = loadConfig(env);
    expect(await settleBackupDir(config, env)).toEqual({ config, formerDefault: false });
  });
});
