// `npm start`: builds when the build is missing or older than the sources (or was made for another SITE_URL),
// then runs the server. Without DATABASE_URL the server starts its own PostgreSQL under DATA_DIR.
import { runBuiltEntry } from "./build-info.mjs";

await runBuiltEntry("start", "index");
