// `npm run user -- <command>`: manages staff accounts from a shell, for operators. It uses the app's
// database: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR (the running app's, or started for this).
// It runs from the sources (tsx), never from build/: run beside a live server with another SITE_URL or PORT in
// the shell, it used to rebuild that server's files in place (DESIGN: admin commands are harmless on a live server).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as z from "zod/mini";
import { displayNameField, newPasswordField, usernameField } from "../app/features/staff-accounts/schemas";
import { removeLostSecondFactor } from "../app/services/auth/second-factor.server";
import {
  createStaffUser,
  findStaffUserByUsername,
  listStaffUsers,
  resetStaffPassword,
  setStaffUserActive,
  UsernameTakenError,
} from "../app/services/auth/staff-users.server";
import { ConfigError, loadConfig } from "../app/services/config.server";
import { connectDatabase, type Database } from "../app/services/db/database.server";
import { openEmbeddedPostgres } from "../app/services/db/embedded-postgres.server";
import { applyMigrations } from "../app/services/db/migrations.server";
import { createLogger } from "../app/services/logger.server";
import { readPassword } from "./read-password";

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const USAGE = `Usage: npm run user -- <command>

  create <username> [--role staff|admin] [--display-name "Full Name"]
                                            add a user (default role: staff, display name: the username);
                                            asks for the password
  reset-password <username>                 set a new password; signs the user out everywhere
  reset-two-factor <username>               remove the user's two-step verification (a lost phone, or a
                                            restore without DATA_ENCRYPTION_KEY); signs them out everywhere
  deactivate <username>                     stop the user signing in; signs them out everywhere
  activate <username>                       let a deactivated user sign in again
  list                                      show every user

The password is read from the terminal, or from the first line of standard input when it is piped.`;

class UsageError extends Error {}

function check<T>(schema: z.ZodMiniType<T>, value: unknown): T {
  const result = z.safeParse(schema, value);
  if (!result.success) throw new UsageError(result.error.issues.map((issue) => issue.message).join("; "));
  return result.data;
}

async function requireUser(db: Database, username: string) {
  const user = await findStaffUserByUsername(db, username);
  if (!user) throw new UsageError(`No user is called ${username}`);
  return user;
}

type Options = { role: string; displayName: string | undefined };

async function run(db: Database, command: string, username: string | undefined, options: Options) {
  if (command === "list") {
    for (const user of await listStaffUsers(db)) {
      const lastSignIn = user.lastSignedInAt?.toISOString() ?? "never";
      console.log(
        `${user.username}\t${user.displayName}\t${user.role}\t${user.isActive ? "active" : "deactivated"}\tlast sign-in: ${lastSignIn}`,
      );
    }
    return;
  }
  if (!username) throw new UsageError(USAGE);
  switch (command) {
    case "create": {
      const details = {
        username: check(usernameField, username),
        role: check(z.enum(["admin", "staff"], { error: "The role is admin or staff" }), options.role),
        displayName: options.displayName === undefined ? undefined : check(displayNameField, options.displayName),
        password: check(newPasswordField, await readPassword()),
      };
      const created = await createStaffUser(db, details).catch((error: unknown) => {
        throw error instanceof UsernameTakenError ? new UsageError(error.message) : error;
      });
      console.log(`Created ${details.role} ${created.username} (${created.displayName}).`);
      return;
    }
    case "reset-password": {
      const user = await requireUser(db, username);
      await resetStaffPassword(db, user.id, check(newPasswordField, await readPassword()));
      console.log(`The password of ${user.username} was reset; their sessions were signed out.`);
      return;
    }
    case "reset-two-factor": {
      const user = await requireUser(db, username);
      const { sessions } = await removeLostSecondFactor(db, user.id);
      console.log(
        `The two-step verification of ${user.username} was removed, and ${sessions} session${sessions === 1 ? "" : "s"} signed out. They sign in with their password and can set it up again.`,
      );
      return;
    }
    case "deactivate":
    case "activate": {
      const user = await requireUser(db, username);
      await setStaffUserActive(db, user.id, command === "activate");
      console.log(`${user.username} is ${command === "activate" ? "active" : "deactivated"}.`);
      return;
    }
    default:
      throw new UsageError(USAGE);
  }
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      role: { type: "string", default: "staff" },
      "display-name": { type: "string" },
      help: { type: "boolean" },
    },
  });
  const [command, username] = positionals;
  if (!command || values.help) {
    console.log(USAGE);
    return command || values.help ? 0 : 1;
  }
  const envFile = path.join(rootDir, ".env");
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  const config = loadConfig(process.env);
  const logger = createLogger(config.LOG_LEVEL === "info" ? "warn" : config.LOG_LEVEL);
  const embedded = config.DATABASE_URL ? undefined : await openEmbeddedPostgres({ dataDir: config.DATA_DIR, logger });
  const database = connectDatabase(config.DATABASE_URL ?? embedded?.url ?? "", logger);
  try {
    await applyMigrations(database.pool, path.join(rootDir, "drizzle"));
    await run(database.db, command, username, { role: values.role, displayName: values["display-name"] });
    return 0;
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof UsageError || error instanceof ConfigError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
