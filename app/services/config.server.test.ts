import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.server";

describe("loadConfig", () => {
  it("gives the documented defaults for an empty environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      SITE_URL: "http://localhost:3000",
      DATA_DIR: "./data",
      DELIVERY_RETRY_SCHEDULE: ["0", "5s", "5m", "30m", "2h", "5h", "10h", "10h"],
      RESUME_RETENTION_DAYS: 90,
      PEER_REVIEW_MIN_RESPONSES: 3,
      INBOX_ALERT_AFTER: 24 * 3_600_000,
      BACKUP_DIR: path.resolve("data-backups"),
      BACKUP_EVERY: 24 * 3_600_000,
      BACKUP_KEEP: 7,
      UPLOAD_UNFINISHED_MAX_BYTES_PER_PERSON: 160 * 1024 ** 2,
      UPLOAD_FREE_SPACE_FLOOR: 1024 ** 3,
      BACKUP_COPY_KEEP: 30,
    });
    expect(config.BACKUP_COPY_TO).toBeUndefined();
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("keeps the backups beside DATA_DIR, not in it, named after it, so two sites side by side keep theirs apart", () => {
    expect(loadConfig({ DATA_DIR: "/var/lib/tri-county-electric/3001" }).BACKUP_DIR).toBe(
      "/var/lib/tri-county-electric/3001-backups",
    );
    expect(loadConfig({ DATA_DIR: "/srv/tce/staging/" }).BACKUP_DIR).toBe("/srv/tce/staging-backups");
    expect(loadConfig({ DATA_DIR: "/srv/tce/data/", BACKUP_DIR: "/mnt/backups" }).BACKUP_DIR).toBe("/mnt/backups");
  });

  it("reads the webhook target of a form it has never heard of, since the forms declare their own", () => {
    const config = loadConfig({ WEBHOOK_WARRANTY_CLAIM_URL: "https://hooks.example.com/warranty", WEBHOOK_SECRET: "" });
    expect(config.WEBHOOK_WARRANTY_CLAIM_URL).toBe("https://hooks.example.com/warranty");
    expect(() => loadConfig({ WEBHOOK_WARRANTY_CLAIM_URL: "hooks.example.com" })).toThrow(
      'WEBHOOK_WARRANTY_CLAIM_URL must be an http(s) URL (got "hooks.example.com")',
    );
  });

  it("names the variable, the problem and the value in one line", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(
      new ConfigError('Invalid configuration: PORT must be a number (got "eighty")'),
    );
    expect(() => loadConfig({ PORT: "70000" })).toThrow('PORT must be between 0 and 65535 (got "70000")');
    expect(() => loadConfig({ SITE_URL: "example.com" })).toThrow(
      /^Invalid configuration: SITE_URL must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ WEBHOOK_ESTIMATE_URL: "ftp://hooks.example.com" })).toThrow(
      'WEBHOOK_ESTIMATE_URL must be an http(s) URL (got "ftp://hooks.example.com")',
    );
    expect(() => loadConfig({ DELIVERY_RETRY_SCHEDULE: "0,5 seconds" })).toThrow(/DELIVERY_RETRY_SCHEDULE/);
    expect(() => loadConfig({ RESUME_RETENTION_DAYS: "0" })).toThrow(
      'RESUME_RETENTION_DAYS must be at least 1 (got "0")',
    );
    expect(() => loadConfig({ PEER_REVIEW_MIN_RESPONSES: "2" })).toThrow(
      'PEER_REVIEW_MIN_RESPONSES must be at least 3, so that no single review can be read from the averages (got "2")',
    );
    expect(loadConfig({ PEER_REVIEW_MIN_RESPONSES: "5" }).PEER_REVIEW_MIN_RESPONSES).toBe(5);
  });

  it("never echoes a secret's value", () => {
    let message = "";
    try {
      loadConfig({ SESSION_SECRET: "short-secret" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe("Invalid configuration: SESSION_SECRET must be at least 32 characters");
  });

  it("requires SESSION_SECRET in production on a public SITE_URL, and makes one on this machine only", () => {
    const publicSite = { NODE_ENV: "production", SITE_URL: "https://www.example.com" };
    expect(() => loadConfig(publicSite)).toThrow("SESSION_SECRET is required in production on a public SITE_URL");
    expect(() => loadConfig(publicSite)).toThrow("DATA_ENCRYPTION_KEY is required in production on a public SITE_URL");
    expect(() => loadConfig(publicSite)).toThrow(
      "BACKUP_ENCRYPTION_KEY is required in production on a public SITE_URL",
    );
    expect(() => loadConfig(publicSite)).toThrow("VAPID_PRIVATE_KEY is required in production on a public SITE_URL");
    const secrets = {
      SESSION_SECRET: "x".repeat(32),
      DATA_ENCRYPTION_KEY: "ab".repeat(32),
      BACKUP_ENCRYPTION_KEY: "cd".repeat(32),
      VAPID_PUBLIC_KEY: `B${"a".repeat(86)}`,
      VAPID_PRIVATE_KEY: "b".repeat(43),
    };
    expect(loadConfig({ ...publicSite, ...secrets }).NODE_ENV).toBe("production");
    expect(loadConfig({ NODE_ENV: "production" }).SESSION_SECRET).toBeUndefined();
    expect(loadConfig({ NODE_ENV: "production", SITE_URL: "http://127.0.0.1:8080" }).NODE_ENV).toBe("production");
  });

  it("treats an empty value as unset and drops a trailing slash from SITE_URL", () => {
    const config = loadConfig({ DATABASE_URL: "", PORT: "", SITE_URL: "https://www.example.com/" });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PORT).toBe(3000);
    expect(config.SITE_URL).toBe("https://www.example.com");
  });

  it("takes SITE_URL from the port when it is unset", () => {
    expect(loadConfig({ PORT: "4000" }).SITE_URL).toBe("http://localhost:4000");
    expect(loadConfig({ PORT: "0" }).SITE_URL).toBe("http://localhost:3000");
    expect(loadConfig({ PORT: "4000", SITE_URL: "https://www.example.com" }).SITE_URL).toBe("https://www.example.com");
  });

  it("reads a custom retry schedule", () => {
    expect(loadConfig({ DELIVERY_RETRY_SCHEDULE: "0, 100ms,1s" }).DELIVERY_RETRY_SCHEDULE).toEqual([
      "0",
      "100ms",
      "1s",
    ]);
  });

  it("reads INBOX_ALERT_AFTER as a duration and refuses anything else", () => {
    expect(loadConfig({ INBOX_ALERT_AFTER: "90m" }).INBOX_ALERT_AFTER).toBe(90 * 60_000);
    expect(() => loadConfig({ INBOX_ALERT_AFTER: "a day" })).toThrow(/^Invalid configuration: INBOX_ALERT_AFTER/);
  });

  it("reads the upload settings as sizes in bytes or binary units and refuses anything else", () => {
    expect(loadConfig({ UPLOAD_UNFINISHED_MAX_BYTES_PER_PERSON: "512KB" }).UPLOAD_UNFINISHED_MAX_BYTES_PER_PERSON).toBe(
      512 * 1024,
    );
    expect(loadConfig({ UPLOAD_FREE_SPACE_FLOOR: "2000000" }).UPLOAD_FREE_SPACE_FLOOR).toBe(2_000_000);
    expect(() => loadConfig({ UPLOAD_FREE_SPACE_FLOOR: "a lot" })).toThrow(
      /^Invalid configuration: UPLOAD_FREE_SPACE_FLOOR must be a number of bytes with an optional unit/,
    );
  });

  it("reads ALERT_SMS_TO as a phone number in E.164 and refuses one that is not", () => {
    expect(loadConfig({ ALERT_SMS_TO: "(803) 555-0199" }).ALERT_SMS_TO).toBe("+18035550199");
    expect(() => loadConfig({ ALERT_SMS_TO: "on-call" })).toThrow(
      'ALERT_SMS_TO must be a phone number, such as +18035550123 (got "on-call")',
    );
  });

  it("reads PUSH_SERVICE_ALLOWED_HOSTS as hosts with an optional port and refuses anything else", () => {
    expect(loadConfig({}).PUSH_SERVICE_ALLOWED_HOSTS).toEqual([]);
    expect(loadConfig({ PUSH_SERVICE_ALLOWED_HOSTS: "Push.Example.lan, 127.0.0.1:8080,[fd00::1]:8443" })).toMatchObject(
      {
        PUSH_SERVICE_ALLOWED_HOSTS: [
          { hostname: "push.example.lan" },
          { hostname: "127.0.0.1", port: 8080 },
          { hostname: "[fd00::1]", port: 8443 },
        ],
      },
    );
    for (const value of ["https://push.example.lan", "push.example.lan/send", "push.lan:99999", "fd00::1"]) {
      expect(() => loadConfig({ PUSH_SERVICE_ALLOWED_HOSTS: value })).toThrow(
        `PUSH_SERVICE_ALLOWED_HOSTS must be a comma-separated list of host or host:port, such as push.example.lan:8443 (got "${value}")`,
      );
    }
  });

  it("wants the ServiceTitan and Twilio settings as whole sets, naming what is missing", () => {
    expect(() => loadConfig({ SERVICETITAN_CLIENT_ID: "cid", SERVICETITAN_APP_KEY: "ak" })).toThrow(
      /SERVICETITAN_CLIENT_SECRET is required with SERVICETITAN_CLIENT_ID, SERVICETITAN_APP_KEY.*SERVICETITAN_TENANT_ID is required/,
    );
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: "AC1", TWILIO_FROM: "+18035550100" })).toThrow(
      "TWILIO_AUTH_TOKEN is required with TWILIO_ACCOUNT_SID, TWILIO_FROM",
    );
    expect(loadConfig({}).SERVICETITAN_CLIENT_ID).toBeUndefined();
  });
});

describe("TRUST_PROXY", () => {
  it("trusts no proxy when unset", () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "0" }).TRUST_PROXY).toBe(false);
  });

  it("reads a hop count or a list of proxy addresses and networks", () => {
    expect(loadConfig({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1 ,fd00::/8" }).TRUST_PROXY).toEqual([
      "10.0.0.0/8",
      "127.0.0.1",
      "fd00::/8",
    ]);
  });

  it.each([["yes"], ["true"], ["10.0.0.0/33"], ["10.0.0.300"], ["fd00::/129"], ["-1"], ["1.5"], ["10.0.0.0/8,"]])(
    "refuses %j with one line naming the variable",
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /^Invalid configuration: TRUST_PROXY must be a number of proxy hops \(1\) or a comma-separated list/,
      );
    },
  );
});

describe("BACKUP_ENCRYPTION_KEY", () => {
  it("takes 32 bytes as hex or base64, and refuses anything else without echoing it", () => {
    const base64 = Buffer.alloc(32, 9).toString("base64");
    expect(loadConfig({ BACKUP_ENCRYPTION_KEY: base64 }).BACKUP_ENCRYPTION_KEY).toBe(base64);
    expect(() => loadConfig({ BACKUP_ENCRYPTION_KEY: "0f".repeat(31) })).toThrow(
      new ConfigError(
        "Invalid configuration: BACKUP_ENCRYPTION_KEY must be 32 random bytes as 64 hex digits or base64 (openssl rand -base64 32)",
      ),
    );
  });
});

describe("DATA_ENCRYPTION_KEY", () => {
  it("takes 32 bytes as hex or base64", () => {
    expect(loadConfig({ DATA_ENCRYPTION_KEY: "0f".repeat(32) }).DATA_ENCRYPTION_KEY).toBe("0f".repeat(32));
    const base64 = Buffer.alloc(32, 7).toString("base64");
    expect(loadConfig({ DATA_ENCRYPTION_KEY: base64 }).DATA_ENCRYPTION_KEY).toBe(base64);
  });

  it.each([["too-short"], ["0f".repeat(31)], [Buffer.alloc(16).toString("base64")]])(
    "refuses %j without echoing it",
    (value) => {
      expect(() => loadConfig({ DATA_ENCRYPTION_KEY: value })).toThrow(
        new ConfigError(
          "Invalid configuration: DATA_ENCRYPTION_KEY must be 32 random bytes as 64 hex digits or base64 (openssl rand -base64 32)",
        ),
      );
    },
  );
});

describe("a malformed URL setting", () => {
  it.each([
    ["DATABASE_URL", "postgres://app:s3cret-Pa55@db.internal:port/app"],
    ["DATABASE_URL", "mysql://app:s3cret-Pa55@db.internal/app"],
    ["SMTP_URL", "smtp://mailer:s3cret-Pa55@mail.internal:notaport"],
    ["SMTP_URL", "smtps://mailer:s3cret:Pa55@word@mail.internal:x"],
  ])("%s is named without its password", (variable, value) => {
    let message = "";
    try {
      loadConfig({ [variable]: value });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${variable} must be`));
    expect(message).not.toContain("s3cret");
    expect(message).not.toContain("Pa55");
    expect(message).toContain("***@");
  });
});

describe("WAL_ARCHIVE", () => {
  it("is on with the embedded server and off with DATABASE_URL, unless set", () => {
    expect(loadConfig({}).WAL_ARCHIVE).toBe("on");
    expect(loadConfig({ WAL_ARCHIVE: "off" }).WAL_ARCHIVE).toBe("off");
    expect(loadConfig({ DATABASE_URL: "postgres://app@db.internal/app" }).WAL_ARCHIVE).toBe("off");
  });

  it("refuses on with DATABASE_URL, whose server the app cannot make archive, and a value not on or off", () => {
    expect(() => loadConfig({ WAL_ARCHIVE: "on", DATABASE_URL: "postgres://app@db.internal/app" })).toThrow(
      /^Invalid configuration: WAL_ARCHIVE cannot be on with DATABASE_URL: the app archives only its embedded server's WAL/,
    );
    expect(() => loadConfig({ WAL_ARCHIVE: "yes" })).toThrow(
      new ConfigError('Invalid configuration: WAL_ARCHIVE must be "on" or "off" (got "yes")'),
    );
  });
});
