import { describeFormContract } from "#tests/form-contract";
import { ESTIMATE_REQUEST_WEBHOOK_KEYS, validEstimateRequest } from "#tests/staff-request-fixture";
import { estimateRequestForm } from "./definition";

describeFormContract(estimateRequestForm, {
  payload: validEstimateRequest,
  webhookKeys: {
    WEBHOOK_ESTIMATE_INTERNAL_URL: ESTIMATE_REQUEST_WEBHOOK_KEYS,
  },
});
