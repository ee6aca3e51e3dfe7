import { type AppLoadContext, data } from "react-router";
import { requireStaff } from "~/server/auth/require-staff.server";
import { technicianOption } from "./technician-record.server";
import { listTechnicians } from "./technician-source.server";

/**
 * The technician list for the message screen, to signed-in staff only, and only names and whether email
 * and text are possible: no address, number, credential or token. A failed lookup is logged where it failed
 * and answered 503 with an empty list (spec §8: the list stays empty).
 */
export async function loadTechnicianOptions(request: Request, context: AppLoadContext) {
  await requireStaff(request, context);
  try {
    const technicians = await listTechnicians(context);
    return data({ technicians: technicians.map(technicianOption), failed: false });
  } catch {
    return data({ technicians: [], failed: true }, { status: 503 });
  }
}
