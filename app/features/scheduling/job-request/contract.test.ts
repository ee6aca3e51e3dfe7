import { describeFormContract } from "#tests/form-contract";
import { JOB_REQUEST_WEBHOOK_KEYS, storedJobRequest } from "#tests/staff-request-fixture";
import { jobRequestForm } from "./definition";

describeFormContract(jobRequestForm, {
  payload: storedJobRequest,
  webhookKeys: {
    WEBHOOK_JOB_REQUEST_URL: JOB_REQUEST_WEBHOOK_KEYS,
  },
});
