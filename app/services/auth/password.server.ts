import { hash, verify } from "@node-rs/argon2";

/** OWASP's argon2id baseline: 19 MiB of memory, 2 iterations, 1 lane. */
// `algorithm: 2` is Algorithm.Argon2id, a const enum that verbatimModuleSyntax cannot import.
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

// Checked against when the username is unknown, so that answer takes as long as a wrong password does.
let decoyHash: Promise<string> | undefined;

/** Whether the password matches the hash; with no hash (no such user) it does the same work and says no. */
export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  decoyHash ??= hashPassword("decoy password for unknown usernames");
  const matches = await verify(passwordHash ?? (await decoyHash), password).catch(() => false);
  return passwordHash !== undefined && matches;
}
