import type { AppLoadContext } from "react-router";
import { PayloadProblem } from "~/forms/payload-problem";
import { submitForm } from "~/forms/submit-form.server";
import { teamMessageForm } from "./definition";
import { NO_RECIPIENT_MESSAGE, SEND_PROBLEM } from "./schema";
import { MAX_RECIPIENTS, sendLimitProblem, TOO_MANY_RECIPIENTS } from "./send-limits.server";
import type { TeamMessage } from "./team-message";
import { listTechnicians } from "./technician-source.server";

/**
 * Sends a team message: the chosen ids are looked up on the server, where the addresses and numbers are, and
 * the message is stored with one email or text per recipient and the webhook, in one transaction. A message
 * past the sender's limits (recipients, messages a minute, texts an hour) is refused and nothing is stored.
 */
export function submitTeamMessage(request: Request, context: AppLoadContext) {
  return submitForm(request, context, teamMessageForm, {
    payload: async (input, { config, db, logger }): Promise<TeamMessage> => {
      const ids = [...new Set(input.recipients)];
      if (ids.length > MAX_RECIPIENTS) throw new PayloadProblem({ [SEND_PROBLEM]: TOO_MANY_RECIPIENTS });
      const technicians = await listTechnicians({ config, db, logger });
      const byId = new Map(technicians.map((technician) => [technician.id, technician]));
      const chosen = ids.map((id) => byId.get(id));
      if (chosen.some((technician) => technician === undefined)) {
        throw new PayloadProblem({
          recipients: "A chosen technician is no longer on the list. Please reload the page and choose again.",
        });
      }
      return {
        subject: input.subject,
        body: input.body,
        recipients: chosen.flatMap((technician) =>
          technician
            ? [
                {
                  id: technician.id,
                  name: technician.name,
                  email: technician.email,
                  phoneNumber: technician.phoneNumber,
                },
              ]
            : [],
        ),
        sentAt: new Date().toISOString(),
      };
    },
    // Counted in the transaction that stores the message, one message of the user's at a time (see
    // sendLimitProblem): two sent at the same moment at the limit do not both go.
    admit: async (message, transaction, staff) => {
      if (!staff) return;
      // Texts go one per number, as personalMessages makes them.
      const texts = new Set(message.recipients.map((recipient) => recipient.phoneNumber).filter(Boolean)).size;
      const overLimit = await sendLimitProblem(transaction, context.config, staff.id, texts);
      if (overLimit) throw new PayloadProblem({ [SEND_PROBLEM]: overLimit }, 429);
    },
    invalidMessage: (problems) =>
      problems[SEND_PROBLEM] ?? (problems.recipients === NO_RECIPIENT_MESSAGE ? NO_RECIPIENT_MESSAGE : undefined),
  });
}
