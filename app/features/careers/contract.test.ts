import { APPLICATION_PARTS, validApplication } from "#tests/application-fixture";
import { describeFormContract } from "#tests/form-contract";
import { applicationForm } from "./definition";

describeFormContract(applicationForm, {
  payload: { ...validApplication, experienceLevel: 0 },
  webhookKeys: {
    WEBHOOK_APPLICATION_URL: APPLICATION_PARTS,
    WEBHOOK_APPLICATION_SECONDARY_URL: APPLICATION_PARTS,
  },
});
