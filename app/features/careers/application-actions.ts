import { clientActionFallingBackTo } from "~/features/forms/client-action-fallback";
import { type ApplicationActionResult, SUBMIT_FAILED_MESSAGE } from "./schema";

export const applicationClientAction = clientActionFallingBackTo<ApplicationActionResult>({
  status: "error",
  message: SUBMIT_FAILED_MESSAGE,
});
