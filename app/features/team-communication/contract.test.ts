import { describeFormContract } from "#tests/form-contract";
import { teamMessageForm } from "./definition";

describeFormContract(teamMessageForm, {
  payload: {
    subject: "Storm crew",
    body: "Meet at the yard at 6 pm.",
    recipients: [
      { id: 7, name: "Ana Ruiz", email: "ana@example.com", phoneNumber: "+18035550101" },
      { id: 8, name: "Ben Okafor", email: null, phoneNumber: "+18035550102" },
    ],
    sentAt: "2026-03-05T14:00:00.000Z",
  },
  webhookKeys: { WEBHOOK_TEAM_MESSAGE_URL: ["subject", "message", "recipients", "timestamp", "sender"] },
});
