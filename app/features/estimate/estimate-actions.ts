import { clientActionFallingBackTo } from "~/forms/client-action-fallback";
import { type EstimateActionResult, estimateForm } from "./definition";

/** Unreachable or offline, the visitor is given the office phone with their values kept. */
export const estimateClientAction = clientActionFallingBackTo<EstimateActionResult>(
  { status: "error", message: estimateForm.messages.unreachable, retry: true },
  { status: "error", message: estimateForm.messages.offline, retry: true },
);
