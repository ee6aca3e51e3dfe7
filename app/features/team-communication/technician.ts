/**
 * A technician as the browser sees them: who they are and how they can be reached, never their address or
 * number, which stay on the server.
 */
export type TechnicianOption = { id: number; name: string; canEmail: boolean; canText: boolean };

/** How a message reaches a technician, in words, beside their name in the list. */
export function reachabilityOf(technician: Pick<TechnicianOption, "canEmail" | "canText">): string {
  if (technician.canEmail && technician.canText) return "email and text";
  if (technician.canEmail) return "email only";
  if (technician.canText) return "text only";
  return "no email or readable mobile number";
}
