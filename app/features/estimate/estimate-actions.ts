import type { ClientActionFunctionArgs } from "react-router";
import { type EstimateActionResult, UNREACHABLE_MESSAGE } from "./schema";

/**
 * In the browser the action goes through here: when our server cannot be reached, or fails outright, the
 * visitor gets a message with the office phone and keeps every value, instead of the error screen.
 */
export async function estimateClientAction({ serverAction }: ClientActionFunctionArgs): Promise<EstimateActionResult> {
  try {
    return (await serverAction()) as EstimateActionResult;
  } catch {
    return { status: "error", message: UNREACHABLE_MESSAGE };
  }
}
