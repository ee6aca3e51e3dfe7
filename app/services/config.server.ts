import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { z } from "zod";
import { company } from "../content/company";
import { decodeDataEncryptionKey } from "./auth/data-encryption.server";
import { BYTE_SIZE_PATTERN, parseByteSize } from "./byte-size.server";
import { DURATION_PATTERN, parseDuration } from "./duration.server";

const optionalUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional();
const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);

const TRUST_PROXY_MESSAGE =
  "must be a number of proxy hops (1) or a comma-separated list of proxy addresses or networks (10.0.0.0/8,127.0.0.1)";

/** An IPv4 or IPv6 address, optionally with a prefix length that fits it. */
function isAddressOrNetwork(value: string): boolean {
  const [address = "", prefix, ...rest] = value.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Which proxies' X-Forwarded-For to believe, in the form Express's `trust proxy` takes: false (none), a hop
 * count, or the proxies' addresses and networks.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): false | number | string[] => {
    if (value === undefined) return false;
    if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
    const entries = value.split(",").map((entry) => entry.trim());
    if (entries.every(isAddressOrNetwork)) return entries;
    ctx.addIssue({ code: "custom", message: TRUST_PROXY_MESSAGE });
    return z.NEVER;
  });

export const siteUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://www.example.com" })
  .transform((url) => url.replace(/\/+$/, ""));

/**
 * SITE_URL when unset: this machine on the configured port, so `PORT=4000 npm start` links to itself. Port 0
 * (any free port) is not known before listening, so it counts as the default 3000. scripts/build-info.mjs
 * applies the same rule to the prerendered pages.
 */
export function localSiteUrl(port: number): string {
  return `http://localhost:${port || 3000}`;
}

const PUBLIC_PRODUCTION_REQUIRES = "is required in production on a public SITE_URL";

/**
 * A site on this machine only (localhost, 127.0.0.1, ::1): `npm start` there runs in production mode and still
 * makes its own secrets in DATA_DIR. A public SITE_URL in production must be given them.
 */
export function isLocalSite(siteUrl: string): boolean {
  return ["localhost", "127.0.0.1", "[::1]"].includes(new URL(siteUrl).hostname);
}

const duration = z.string().regex(DURATION_PATTERN, "must be a number with an optional unit ms, s, m, h or d");
const byteSize = z
  .string()
  .regex(BYTE_SIZE_PATTERN, "must be a number of bytes with an optional unit KB, MB, GB or TB");

/** Set together or not at all: half of a connection is a mistake to report at start, not at the first use. */
const SERVICETITAN_SETTINGS = [
  "SERVICETITAN_CLIENT_ID",
  "SERVICETITAN_CLIENT_SECRET",
  "SERVICETITAN_APP_KEY",
  "SERVICETITAN_TENANT_ID",
] as const;
const TWILIO_SETTINGS = ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM"] as const;
const VAPID_KEYS = ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"] as const;
/** TEXTS_PER_NUMBER_PER_DAY unless set: a delivery worker given no configuration of it holds to this too. */
export const DEFAULT_TEXTS_PER_NUMBER_PER_DAY = 50;

/** A host a setting lets the server reach: a name or an IP address (IPv6 in brackets), and a port if one is given. */
export type HostAndPort = { hostname: string; port?: number };

/** `host` or `host:port`, named as a URL's host is (lowercase, an IP address written canonically). */
function parseHostAndPort(entry: string): HostAndPort | undefined {
  const match = /^([^:/?#@\s[\]]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i.exec(entry);
  if (!match?.[1] || !URL.canParse(`http://${match[1]}`)) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && (port < 1 || port > 65_535)) return undefined;
  return { hostname: new URL(`http://${match[1]}`).hostname, port };
}

const hostList = z.string().transform((value, ctx): HostAndPort[] => {
  const entries = value.split(",").map((entry) => parseHostAndPort(entry.trim()));
  if (entries.every((entry) => entry !== undefined)) return entries;
  ctx.addIssue({
    code: "custom",
    message: "must be a comma-separated list of host or host:port, such as push.example.lan:8443",
  });
  return z.NEVER;
});

/** A phone number as typed (US by default), kept in E.164 for texting. */
const phoneNumber = z.string().transform((value, ctx) => {
  const phone = parsePhoneNumberFromString(value, "US");
  if (phone?.isValid()) return phone.number;
  ctx.addIssue({ code: "custom", message: "must be a phone number, such as +18035550123" });
  return z.NEVER;
});

/** A span of the day as minutes after midnight; one whose end is before its start runs past midnight. */
export type QuietHours = { from: number; until: number };

const quietHours = z.string().transform((value, ctx): QuietHours => {
  const match = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/.exec(value.trim());
  if (match && value.trim().slice(0, 5) !== value.trim().slice(6)) {
    const [, fromHours, fromMinutes, untilHours, untilMinutes] = match.map(Number);
    return { from: (fromHours ?? 0) * 60 + (fromMinutes ?? 0), until: (untilHours ?? 0) * 60 + (untilMinutes ?? 0) };
  }
  ctx.addIssue({ code: "custom", message: "must be a span of the day such as 20:00-07:00" });
  return z.NEVER;
});

/**
 * `<DATA_DIR>-backups` beside DATA_DIR (`./data` gives `./data-backups`; `/srv/tce/prod` gives
 * `/srv/tce/prod-backups`): deleting or losing the data folder leaves the backups, and two sites with their data
 * folders side by side keep theirs apart. Named after the folder, not inside a shared `backups`,
 * so no site's folder is ever inside another's.
 */
export function defaultBackupDir(dataDir: string): string {
  const resolved = path.resolve(dataDir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}-backups`);
}

/** The default before issue 47, `backups` beside DATA_DIR, shared by every site with a data folder there. */
export function formerDefaultBackupDir(dataDir: string): string {
  return path.join(path.resolve(dataDir), "..", "backups");
}

export const configSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be between 0 and 65535")
      .max(65535, "must be between 0 and 65535")
      .default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    /** Unset: this machine on PORT (see localSiteUrl). */
    SITE_URL: siteUrl.optional(),
    DATA_DIR: z.string().min(1).default("./data"),
    /** Where backups go; unset: `<DATA_DIR>-backups` beside DATA_DIR (decision 0804; issue 47). */
    BACKUP_DIR: z.string().min(1).optional(),
    /**
     * The embedded server's WAL archived into BACKUP_DIR/wal, with base backups in BACKUP_DIR/base, for a restore to
     * any moment (decision 0803). Unset: on with the embedded server; DATABASE_URL's server archives by its own means.
     */
    WAL_ARCHIVE: z.enum(["on", "off"], { error: 'must be "on" or "off"' }).optional(),
    /** An rclone destination (`remote:path`) each backup is copied to and read back from; unset: no copy. */
    BACKUP_COPY_TO: z.string().min(1).optional(),
    /** Unset: /metrics answers 404. Set: it answers scrapers sending `Authorization: Bearer <token>`. */
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters (openssl rand -hex 32)").optional(),
    /** A scheduled backup this often; 0: none (backups by hand only). */
    BACKUP_EVERY: duration.default("24h").transform(parseDuration),
    /** The newest this many backups of BACKUP_DIR are kept; older ones are deleted after each backup. */
    BACKUP_KEEP: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(7),
    /** The same for the copies at BACKUP_COPY_TO. */
    BACKUP_COPY_KEEP: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(30),
    /** Unset: the connecting address is the client's. Behind a load balancer, which hops to believe. */
    TRUST_PROXY: trustProxy,
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" }).optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    /** Encrypts second-factor secrets at rest: 32 random bytes as 64 hex digits or base64. */
    DATA_ENCRYPTION_KEY: z
      .string()
      .refine((value) => decodeDataEncryptionKey(value) !== undefined, {
        message: "must be 32 random bytes as 64 hex digits or base64 (openssl rand -base64 32)",
      })
      .optional(),
    /** Seals every backup, base backup and copied WAL file: 32 random bytes as 64 hex digits or base64. */
    BACKUP_ENCRYPTION_KEY: z
      .string()
      .refine((value) => decodeDataEncryptionKey(value) !== undefined, {
        message: "must be 32 random bytes as 64 hex digits or base64 (openssl rand -base64 32)",
      })
      .optional(),
    /** A staff session ends after this long without a request... */
    SESSION_IDLE_TIMEOUT: duration.default("8h").transform(parseDuration),
    /** ...and this long after sign-in, however busy. */
    SESSION_MAX_AGE: duration.default("7d").transform(parseDuration),
    /** The dashboard warns when a new estimate request has waited longer than this without being handled. */
    INBOX_ALERT_AFTER: duration.default("24h").transform(parseDuration),
    PUBLIC_FORM_RATE_LIMIT: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(10),
    /** Team Communication: messages one staff user may send a minute... */
    TEAM_MESSAGES_PER_MINUTE: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(10),
    /** ...and texts (each costs money) an hour. */
    TEAM_TEXTS_PER_HOUR: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(200),
    /**
     * Texts one phone number may get in 24 hours, from everything that texts (new leads, alerts, team messages,
     * replays): past it a text is not sent, and says why. Room for a busy day of leads and their alerts.
     */
    TEXTS_PER_NUMBER_PER_DAY: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(DEFAULT_TEXTS_PER_NUMBER_PER_DAY),
    /** Worker threads for photo and PDF work: one photo or PDF at a time each. Unset: one per core. */
    PHOTO_WORKERS: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(availableParallelism()),
    /** Photo and PDF tasks that may wait for a worker; one more makes its form answer 503 with its answers kept. */
    PHOTO_QUEUE_LIMIT: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be at least 0")
      .default(16),
    /** The most pixels one photo may have, HEIC included (decoded, 100 megapixels take about 400 MB). */
    PHOTO_MAX_PIXELS: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(100_000_000),
    /** The most pixels the photos of one submission may have together; the photos past it are left out. */
    SUBMISSION_MAX_PIXELS: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(600_000_000),
    /**
     * The bytes one person's photos going up ahead of their form, or up and not yet taken by a post, may hold
     * together; a new upload past it is refused (413) and its photo goes with the form instead. The default holds
     * two checklists of ten large (8 MB) photos: 2 x the checklist's 80 MB.
     */
    UPLOAD_UNFINISHED_MAX_BYTES_PER_PERSON: byteSize.default("160MB").transform(parseByteSize),
    /**
     * The free space DATA_DIR's disk keeps for the database's own writes: a new upload that would leave less is
     * refused (507) and its photo goes with the form instead, and a form whose files would is refused (507) with
     * its answers kept. A form without files is never refused by it.
     */
    UPLOAD_FREE_SPACE_FLOOR: byteSize.default("1GB").transform(parseByteSize),
    WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, "must look like whsec_ followed by a base64 key")
      .optional(),
    DELIVERY_RETRY_SCHEDULE: z
      .string()
      .transform((value) => value.split(",").map((part) => part.trim()))
      .pipe(z.array(duration).min(1, "must list at least one delay"))
      .default(["0", "5s", "5m", "30m", "2h", "5h", "10h", "10h"]),
    /** Rejected applicants' resumes are deleted this many days after the rejection. */
    RESUME_RETENTION_DAYS: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .default(90),
    /**
     * The peer-review report shows a person's averages only from this many reviews up: below 3, one review
     * could be read back from the averages.
     */
    PEER_REVIEW_MIN_RESPONSES: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(3, "must be at least 3, so that no single review can be read from the averages")
      .default(3),
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
    MAIL_FROM: z.string().min(3).optional(),
    STAFF_NOTIFY_EMAIL: z.email("must be an email address").optional(),
    ESTIMATE_SCHEDULER_EMAIL: z.email("must be an email address").optional(),
    TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
    TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
    TWILIO_FROM: z.string().min(1).optional(),
    TWILIO_API_URL: optionalUrl,
    /** The office's on-call mobile: each dashboard alert is texted here once (through Twilio). */
    ALERT_SMS_TO: phoneNumber.optional(),
    /** The on-call mobile that gets a text for each new lead, quiet hours or not (through Twilio). */
    NEW_LEAD_SMS_TO: phoneNumber.optional(),
    /** When new leads push to no staff device (only the on-call text goes), on the company's clock. */
    NEW_LEAD_QUIET_HOURS: quietHours.optional(),
    /** The Web Push (VAPID) key pair that signs push notifications; made once and kept in DATA_DIR when unset. */
    VAPID_PUBLIC_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, "must be a P-256 public key in base64url (npx web-push generate-vapid-keys)")
      .optional(),
    VAPID_PRIVATE_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, "must be a P-256 private key in base64url (npx web-push generate-vapid-keys)")
      .optional(),
    /**
     * Push services reached at a private address or over plain http, as host or host:port (a self-hosted push
     * service): a push address anywhere else must be https to a public address.
     */
    PUSH_SERVICE_ALLOWED_HOSTS: hostList.default([]),
    /** Who the push services may contact about our sends: a mailto: address or an https: URL. */
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/, "must be a mailto: address or an https: URL")
      .optional(),
    SERVICETITAN_CLIENT_ID: z.string().min(1).optional(),
    SERVICETITAN_CLIENT_SECRET: z.string().min(1).optional(),
    SERVICETITAN_APP_KEY: z.string().min(1).optional(),
    SERVICETITAN_TENANT_ID: z.string().min(1).optional(),
    SERVICETITAN_AUTH_URL: optionalUrl,
    SERVICETITAN_API_URL: optionalUrl,
  })
  .superRefine((config, ctx) => {
    for (const group of [SERVICETITAN_SETTINGS, TWILIO_SETTINGS, VAPID_KEYS]) {
      const missing = group.filter((name) => !config[name]);
      if (missing.length > 0 && missing.length < group.length) {
        for (const name of missing) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: `is required with ${group.filter((other) => config[other]).join(", ")}`,
          });
        }
      }
    }
    if (config.WAL_ARCHIVE === "on" && config.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["WAL_ARCHIVE"],
        message:
          "cannot be on with DATABASE_URL: the app archives only its embedded server's WAL; use the database server's own point-in-time recovery (docs/running/continuous-protection.md)",
      });
    }
    if (config.NODE_ENV !== "production" || config.SITE_URL === undefined || isLocalSite(config.SITE_URL)) return;
    for (const variable of ["SESSION_SECRET", "DATA_ENCRYPTION_KEY", "BACKUP_ENCRYPTION_KEY", ...VAPID_KEYS] as const) {
      if (!config[variable]) ctx.addIssue({ code: "custom", path: [variable], message: PUBLIC_PRODUCTION_REQUIRES });
    }
  })
  .transform((config) => ({
    ...config,
    SITE_URL: config.SITE_URL ?? localSiteUrl(config.PORT),
    BACKUP_DIR: config.BACKUP_DIR ?? defaultBackupDir(config.DATA_DIR),
    WAL_ARCHIVE: config.WAL_ARCHIVE ?? (config.DATABASE_URL ? "off" : "on"),
    VAPID_SUBJECT: config.VAPID_SUBJECT ?? `mailto:${config.STAFF_NOTIFY_EMAIL ?? company.email}`,
  }));

/**
 * A webhook target's setting. Which ones exist the forms declare (their deliveries), not this schema: any
 * WEBHOOK_<NAME>_URL in the environment is read, and must be an http(s) URL.
 */
export type WebhookSetting = `WEBHOOK_${string}_URL`;
const WEBHOOK_SETTING = /^WEBHOOK_[A-Z0-9_]+_URL$/;
export const isWebhookSetting = (name: string): name is WebhookSetting => WEBHOOK_SETTING.test(name);
const webhookUrlsSchema = z.record(z.string(), optionalUrl);

/** A setting that names a phone to text. */
export type PhoneSetting = "NEW_LEAD_SMS_TO";

export type Config = z.infer<typeof configSchema> & { [Setting in WebhookSetting]?: string };

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** A URL-like value with the password of its `user:password@` part hidden, even when the rest is malformed. */
function withoutPassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:)[^/?#]*@/i, "$1***@");
}

/** Parses the environment. Empty strings count as unset, so `FOO=` in a .env file means "not configured". */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const input = Object.fromEntries(Object.entries(env).map(([key, value]) => [key, emptyAsUndefined(value)]));
  const result = configSchema.safeParse(input);
  const webhookUrls = webhookUrlsSchema.safeParse(
    Object.fromEntries(Object.entries(input).filter(([key, value]) => isWebhookSetting(key) && value !== undefined)),
  );
  if (result.success && webhookUrls.success) return { ...result.data, ...webhookUrls.data };
  const issues = [...(result.error?.issues ?? []), ...(webhookUrls.error?.issues ?? [])];
  const lines = issues.map((issue) => {
    const variable = issue.path.join(".");
    const value = env[variable];
    const shown =
      value === undefined || /SECRET|TOKEN|PASSWORD|KEY/.test(variable) ? "" : ` (got "${withoutPassword(value)}")`;
    return `${variable} ${issue.message}${shown}`;
  });
  throw new ConfigError(`Invalid configuration: ${lines.join("; ")}`);
}
