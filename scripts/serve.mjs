// `npm run serve`: runs the last build as it is, never building, in production mode unless NODE_ENV says
// otherwise, as `npm start` does.
import { runBuiltEntry } from "./build-info.mjs";

await runBuiltEntry("serve", "index", { NODE_ENV: "production" }, { build: false });
