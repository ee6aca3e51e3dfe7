import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "#tests/app-server";
import { TEST_SESSION_SECRET } from "#tests/test-session-secret";

const clientDir = path.join(projectRoot, "build/client");

function clientFiles(): Array<{ file: string; text: string }> {
  return readdirSync(clientDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(js|html|data|json|css|map)$/.test(entry.name))
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file: path.relative(clientDir, file), text: readFileSync(file, "utf8") };
    });
}

describe("the client build", () => {
  it("carries no credential, password hash, session secret or server-only auth code", () => {
    const files = clientFiles();
    expect(files.some((entry) => entry.file.endsWith(".js"))).toBe(true);
    const forbidden = [
      "$argon2",
      "argon2id",
      "@node-rs/argon2",
      "passwordHash",
      "password_hash",
      "tokenHash",
      "totpSecret",
      "SESSION_SECRET",
      TEST_SESSION_SECRET,
      "e2e-session-secret",
      "staff_sessions",
      'isAdmin"',
    ];
    for (const { file, text } of files) {
      for (const needle of forbidden) expect(text.includes(needle), `${needle} in ${file}`).toBe(false);
    }
  });
});
