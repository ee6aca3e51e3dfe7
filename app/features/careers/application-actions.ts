import { clientActionFallingBackTo } from "~/forms/client-action-fallback";
import { type ApplicationActionResult, applicationForm } from "./definition";

export const applicationClientAction = clientActionFallingBackTo<ApplicationActionResult>(applicationForm.messages);
