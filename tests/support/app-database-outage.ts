import pg from "pg";
import pino from "pino";
import { openEmbeddedPostgres } from "../../app/services/db/embedded-postgres.server";

/**
 * Takes a running app's embedded database away and gives it back, as a real outage: new connections are
 * refused and open ones cut. Run from the server's maintenance database, since the app's own refuses us too.
 */
export async function appDatabaseOutage(dataDir: string) {
  const embedded = await openEmbeddedPostgres({ dataDir, logger: pino({ level: "silent" }) });
  const appUrl = new URL(embedded.superuserUrl);
  const database = appUrl.pathname.slice(1);
  appUrl.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: appUrl.toString() });
  await admin.connect();
  const setReachable = async (reachable: boolean) => {
    await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS ${reachable}`);
    if (!reachable) {
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [database]);
    }
  };
  return {
    down: () => setReachable(false),
    up: () => setReachable(true),
    close: async () => {
      await setReachable(true);
      await admin.end();
      await embedded.stop();
    },
  };
}
