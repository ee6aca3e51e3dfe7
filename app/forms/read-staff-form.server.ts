import { readFormBody, TEXT_FORM_LIMITS } from "./read-form-body.server";
import { staffFormError } from "./staff-form-result";

const UNREADABLE_MESSAGE = "The form could not be read. Please reload the page and try again.";
const TOO_LARGE_MESSAGE = "The form is too large to accept. Please shorten what you typed and try again.";

/** The posted form, read within the small cap of a form with no files, or a thrown 4xx when it is not one. */
export async function readStaffForm(request: Request): Promise<FormData> {
  const read = await readFormBody(request, TEXT_FORM_LIMITS);
  if (read.ok) return read.formData;
  const message = read.status === 413 ? TOO_LARGE_MESSAGE : UNREADABLE_MESSAGE;
  throw staffFormError(message, read.status);
}
