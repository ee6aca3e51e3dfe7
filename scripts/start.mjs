// `npm start`: builds when the build is missing or older than the sources (or was made for another SITE_URL),
// then runs the server, in production mode unless NODE_ENV says otherwise. Without DATABASE_URL the server
// starts its own PostgreSQL under DATA_DIR; on a local SITE_URL it makes its own secrets there too.
import { runBuiltEntry } from "./build-info.mjs";

await runBuiltEntry("start", "index", { NODE_ENV: "production" });
