import type { AppLoadContext } from "react-router";
import { PayloadProblem } from "~/forms/payload-problem";
import { submitForm } from "~/forms/submit-form.server";
import { teamMessageForm } from "./definition";
import { NO_RECIPIENT_MESSAGE } from "./schema";
import type { TeamMessage } from "./team-message";
import { listTechnicians } from "./technician-source.server";

/**
 * Sends a team message: the chosen ids are looked up on the server, where the addresses and numbers are, and
 * the message is stored with one email or text per recipient and the webhook, in one transaction.
 */
export function submitTeamMessage(request: Request, context: AppLoadContext) {
  return submitForm(request, context, teamMessageForm, {
    payload: async (input, { config, db, logger }): Promise<TeamMessage> => {
      const technicians = await listTechnicians({ config, db, logger });
      const byId = new Map(technicians.map((technician) => [technician.id, technician]));
      const chosen = [...new Set(input.recipients)].map((id) => byId.get(id));
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
    invalidMessage: (problems) => (problems.recipients === NO_RECIPIENT_MESSAGE ? NO_RECIPIENT_MESSAGE : undefined),
  });
}
