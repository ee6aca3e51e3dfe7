import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.server";

/**
 * The secret that signs the session cookie. Production on a public SITE_URL must set SESSION_SECRET (the config
 * refuses to start without it); elsewhere one is made on the first start and kept in DATA_DIR, so sessions
 * survive restarts.
 */
export async function resolveSessionSecret(config: Config): Promise<string> {
  if (config.SESSION_SECRET) return config.SESSION_SECRET;
  const file = path.join(config.DATA_DIR, "session-secret");
  const existing = await readFile(file, "utf8").catch(() => undefined);
  if (existing && existing.trim().length >= 32) return existing.trim();
  const secret = randomBytes(32).toString("base64url");
  await mkdir(config.DATA_DIR, { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
