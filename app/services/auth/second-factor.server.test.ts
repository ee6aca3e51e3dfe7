import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATA_ENCRYPTION_KEY } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { staffRecoveryCodes, staffUsers } from "../db/schema.server";
import { openSecret, sealSecret } from "./data-encryption.server";
import {
  consumeRecoveryCode,
  enableTotp,
  newTotpSecret,
  readableTotpSecret,
  replaceRecoveryCodes,
  sealPlainTotpSecrets,
} from "./second-factor.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const storedSecretOf = async (userId: number) =>
  (await database.db.select().from(staffUsers).where(eq(staffUsers.id, userId)))[0]?.totpSecret;

describe("a TOTP secret at rest", () => {
  it("is stored encrypted, and opens only with the key it was sealed with", async () => {
    const user = await addStaffUser(database.db);
    const secret = newTotpSecret();
    await enableTotp(database.db, TEST_DATA_ENCRYPTION_KEY, user.id, secret, null);
    const stored = (await storedSecretOf(user.id)) ?? "";
    expect(stored).not.toContain(secret);
    expect(stored).toMatch(/^v1:/);
    expect(readableTotpSecret(TEST_DATA_ENCRYPTION_KEY, stored)).toBe(secret);
    expect(readableTotpSecret("7a".repeat(32), stored)).toBeUndefined();
  });

  it("cannot be changed or moved to another column unnoticed", () => {
    const sealed = sealSecret(TEST_DATA_ENCRYPTION_KEY, "one column", "JBSWY3DPEHPK3PXP");
    expect(() => openSecret(TEST_DATA_ENCRYPTION_KEY, "another column", sealed)).toThrow();
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === "A" ? "B" : "A"}${sealed.slice(-1)}`;
    expect(() => openSecret(TEST_DATA_ENCRYPTION_KEY, "one column", flipped)).toThrow();
  });

  it("stored before encryption is encrypted by the start-up step, and only once", async () => {
    const user = await addStaffUser(database.db);
    const secret = newTotpSecret();
    await database.db.update(staffUsers).set({ totpSecret: secret }).where(eq(staffUsers.id, user.id));
    expect(await sealPlainTotpSecrets(database.db, TEST_DATA_ENCRYPTION_KEY)).toBeGreaterThanOrEqual(1);
    const stored = (await storedSecretOf(user.id)) ?? "";
    expect(stored).toMatch(/^v1:/);
    expect(readableTotpSecret(TEST_DATA_ENCRYPTION_KEY, stored)).toBe(secret);
    expect(await sealPlainTotpSecrets(database.db, TEST_DATA_ENCRYPTION_KEY)).toBe(0);
    expect(await storedSecretOf(user.id)).toBe(stored);
  });
});

describe("recovery codes", () => {
  it("carry at least 80 bits and are stored as salted hashes", async () => {
    const user = await addStaffUser(database.db);
    const codes = await replaceRecoveryCodes(database.db, user.id);
    expect(codes).toHaveLength(10);
    for (const code of codes) {
      // 16 characters from base32's 32 letters and digits: 16 × 5 = 80 bits.
      expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    }
    const stored = await database.db
      .select({ codeHash: staffRecoveryCodes.codeHash })
      .from(staffRecoveryCodes)
      .where(eq(staffRecoveryCodes.userId, user.id));
    const plainHashes = codes.map((code) => createHash("sha256").update(code.replaceAll("-", "")).digest("hex"));
    for (const { codeHash } of stored) {
      expect(plainHashes).not.toContain(codeHash);
      expect(codes.some((code) => codeHash.includes(code.replaceAll("-", "")))).toBe(false);
    }
  });

  it("are recognised by their salted hash, in any case, once", async () => {
    const first = await addStaffUser(database.db);
    const [code = ""] = await replaceRecoveryCodes(database.db, first.id);
    const [row] = await database.db
      .select({ id: staffRecoveryCodes.id, codeHash: staffRecoveryCodes.codeHash })
      .from(staffRecoveryCodes)
      .where(eq(staffRecoveryCodes.userId, first.id));
    expect(row?.codeHash.split("$")).toHaveLength(3);
    expect(await consumeRecoveryCode(database.db, first.id, code.toUpperCase())).toBe(true);
    expect(await consumeRecoveryCode(database.db, first.id, code)).toBe(false);
  });
});
