import { clientActionFallingBackTo } from "~/forms/client-action-fallback";
import { type ApplicationActionResult, applicationForm } from "./definition";

export const applicationClientAction = clientActionFallingBackTo<ApplicationActionResult>({
  status: "error",
  message: applicationForm.messages.unreachable,
  retry: true,
});
