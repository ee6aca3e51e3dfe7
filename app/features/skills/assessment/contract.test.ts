import { assessmentAnswers } from "#tests/assessment-fixture";
import { describeFormContract } from "#tests/form-contract";
import { assessmentForm } from "./definition";

describeFormContract(assessmentForm, {
  payload: { answers: assessmentAnswers(10), score: { correct: 10, total: 15, percentage: 67 } },
  webhookKeys: { WEBHOOK_ASSESSMENT_URL: ["answers", "score"] },
});
