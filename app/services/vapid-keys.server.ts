import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import webPush from "web-push";
import type { Config } from "./config.server";

export type VapidKeys = { publicKey: string; privateKey: string };

/**
 * The key pair that signs push notifications. Production on a public SITE_URL must set VAPID_PUBLIC_KEY and
 * VAPID_PRIVATE_KEY (the config refuses to start without them); elsewhere a pair is made on the first start and
 * kept in DATA_DIR, like the session secret. A new pair ends every device's subscription, so keep it.
 */
export async function resolveVapidKeys(config: Pick<Config, "DATA_DIR" | "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY">) {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY };
  const file = path.join(config.DATA_DIR, "vapid-keys.json");
  const existing = await readFile(file, "utf8").then(
    (text) => JSON.parse(text) as Partial<VapidKeys>,
    () => undefined,
  );
  if (existing?.publicKey && existing.privateKey)
    return { publicKey: existing.publicKey, privateKey: existing.privateKey };
  const keys: VapidKeys = webPush.generateVAPIDKeys();
  await mkdir(config.DATA_DIR, { recursive: true });
  await writeFile(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  return keys;
}
