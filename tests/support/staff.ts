import { Secret, TOTP } from "otpauth";
import { createStaffUser } from "../../app/services/auth/staff-users.server";
import type { Database } from "../../app/services/db/database.server";
import type { StaffRole } from "../../app/services/db/schema.server";

export const STAFF_PASSWORD = "a long test password 42";

let counter = 0;
/** A new staff account with a unique name, as an admin would add one. */
export async function addStaffUser(db: Database, role: StaffRole = "staff", password = STAFF_PASSWORD) {
  counter += 1;
  const username = `${role}-${process.pid}-${counter}`;
  const user = await createStaffUser(db, { username, password, role });
  return { ...user, role, password };
}

/** The code an authenticator app would show now for the secret. */
export function currentTotpCode(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate();
}

/** The `name=value` part of a Set-Cookie header, to send back as a Cookie header. */
export function cookieFrom(setCookie: string | null | undefined): string {
  if (!setCookie) throw new Error("no Set-Cookie header");
  return setCookie.split(";")[0] ?? "";
}

/** Signs in over HTTP as a browser would (same-origin POST) and returns the session cookie. */
export async function signInOverHttp(baseUrl: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/admin`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: baseUrl, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }),
  });
  if (response.status !== 302) throw new Error(`sign-in failed with ${response.status}`);
  return cookieFrom(response.headers.get("set-cookie"));
}
