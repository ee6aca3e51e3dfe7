import { CHECKLIST_WEBHOOK_KEYS, checklistAnswers } from "#tests/checklist-fixture";
import { describeFormContract } from "#tests/form-contract";
import { checklistForm } from "./definition";

describeFormContract(checklistForm, {
  payload: checklistAnswers,
  webhookKeys: {
    WEBHOOK_CHECKLIST_URL: CHECKLIST_WEBHOOK_KEYS,
  },
});
