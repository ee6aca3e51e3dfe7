// `npm run settings`: the webhook settings the forms declare, as lines for a .env file, each with what it
// receives. .env.example documents every other setting; these follow the forms, so they are listed from them.
import { webhookTargets } from "../app/features/submission-types.server";

process.stdout.write(webhookTargets.map(({ setting, receives }) => `# ${receives}\n${setting}=\n`).join(""));
