import type { AppLoadContext } from "react-router";
import { technicianOption } from "./technician-record.server";
import { listTechnicians } from "./technician-source.server";

/**
 * The technician list for the message screen, rendered on the server with it, and only names and whether
 * email and text are possible: no address, number, credential or token. A failed lookup is logged where it
 * failed and leaves the list empty (docs/spec.md §8), with `failed` so the screen says so.
 */
export async function loadTechnicianOptions(context: AppLoadContext) {
  try {
    const technicians = await listTechnicians(context);
    return { technicians: technicians.map(technicianOption), failed: false };
  } catch {
    return { technicians: [], failed: true };
  }
}
