import { checklistAnswers } from "#tests/checklist-fixture";
import { describeFormContract } from "#tests/form-contract";
import { checklistForm } from "./definition";

describeFormContract(checklistForm, {
  payload: checklistAnswers,
  webhookKeys: {
    WEBHOOK_CHECKLIST_URL: [
      "fillerName",
      "fillerEmail",
      "projectName",
      "timestamp",
      "filename",
      "pdfBase64",
      "formData",
      "photoCount",
    ],
  },
});
