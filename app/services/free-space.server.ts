import { statfs } from "node:fs/promises";
import path from "node:path";
import type { Config } from "./config.server";

/**
 * The space left to unprivileged writers on the disk of DATA_DIR, where the embedded database keeps its data
 * (DATA_DIR/postgres). With DATABASE_URL this is the database's disk only when its server writes to the same
 * file system as DATA_DIR, which may not have been made then: the disk it would be made on is measured.
 */
async function freeBytes(directory: string): Promise<number> {
  try {
    const { bavail, bsize } = await statfs(directory);
    return bavail * bsize;
  } catch (error) {
    const parent = path.dirname(directory);
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === directory) throw error;
    return freeBytes(parent);
  }
}

/**
 * Whether storing `bytes` of files would leave DATA_DIR's disk under UPLOAD_FREE_SPACE_FLOOR. The floor is kept
 * for what has no file: a lead's answers still store when files no longer may.
 */
export async function filesWouldCrossFloor(
  config: Pick<Config, "DATA_DIR" | "UPLOAD_FREE_SPACE_FLOOR">,
  bytes: number,
): Promise<boolean> {
  if (bytes === 0) return false;
  return (await freeBytes(config.DATA_DIR)) - bytes < config.UPLOAD_FREE_SPACE_FLOOR;
}
