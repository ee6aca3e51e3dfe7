import { clientActionFallingBackTo } from "~/forms/client-action-fallback";
import { type EstimateActionResult, estimateForm } from "./definition";

/** Unreachable, the visitor is given the office phone with their values kept. */
export const estimateClientAction = clientActionFallingBackTo<EstimateActionResult>(estimateForm.messages);
