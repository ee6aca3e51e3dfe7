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
    });
    expect(config.DATABASE_URL).toBeUndefined();
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

  it("requires SESSION_SECRET in production only", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow("SESSION_SECRET is required in production");
    expect(loadConfig({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) }).NODE_ENV).toBe("production");
  });

  it("treats an empty value as unset and drops a trailing slash from SITE_URL", () => {
    const config = loadConfig({ DATABASE_URL: "", PORT: "", SITE_URL: "https://www.example.com/" });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PORT).toBe(3000);
    expect(config.SITE_URL).toBe("https://www.example.com");
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
});
