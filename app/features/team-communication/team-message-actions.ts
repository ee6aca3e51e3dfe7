import type { FormActionResult } from "~/forms/action-result";
import { clientActionFallingBackTo } from "~/forms/client-action-fallback";
import { teamMessageForm } from "./definition";

/** Unreachable, the screen says the message was not confirmed and keeps the form as it was. */
export const teamMessageClientAction = clientActionFallingBackTo<FormActionResult>(teamMessageForm.messages);
