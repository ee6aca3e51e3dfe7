/**
 * Marks the staff guard's 503: the session could not be checked (the database unreachable or too slow), so no
 * loader or action ran and sending again is safe. A proxy's 503 never carries it. Read by the forms' senders.
 */
export const SESSION_UNCHECKED = "sessionUnchecked";

export const isSessionUncheckedAnswer = (answer: unknown): boolean =>
  typeof answer === "object" && answer !== null && (answer as Record<string, unknown>)[SESSION_UNCHECKED] === true;
