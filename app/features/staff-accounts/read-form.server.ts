import { data } from "react-router";
import type { StaffFormResult } from "./form-result";

const UNREADABLE_MESSAGE = "The form could not be read. Please reload the page and try again.";

/** The posted form, or a thrown 400 when the body is not one. */
export async function readStaffForm(request: Request): Promise<FormData> {
  const formData = await request.formData().catch(() => undefined);
  if (!formData)
    throw data({ status: "error", message: UNREADABLE_MESSAGE } satisfies StaffFormResult, { status: 400 });
  return formData;
}
