import { clientActionFallingBackTo } from "~/features/forms/client-action-fallback";
import { type EstimateActionResult, UNREACHABLE_MESSAGE } from "./schema";

/** Unreachable, the visitor is given the office phone with their values kept. */
export const estimateClientAction = clientActionFallingBackTo<EstimateActionResult>({
  status: "error",
  message: UNREACHABLE_MESSAGE,
});
