import { validEstimate } from "#tests/estimate-fixture";
import { describeFormContract } from "#tests/form-contract";
import { estimateForm } from "./definition";

describeFormContract(estimateForm, {
  payload: validEstimate,
  webhookKeys: {
    WEBHOOK_ESTIMATE_URL: [
      "firstName",
      "lastName",
      "email",
      "phone",
      "city",
      "projectType",
      "formOfContact",
      "bestTime",
      "comments",
    ],
  },
});
