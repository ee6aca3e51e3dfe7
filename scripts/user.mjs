// `npm run user -- <command>`: staff accounts from the shell (create, reset-password, deactivate, list).
import { runBuiltEntry } from "./build-info.mjs";

await runBuiltEntry("user", "user-cli");
