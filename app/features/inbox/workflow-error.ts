/**
 * A staff change refused because of what was asked (a status the type lacks, an unknown user): a 400 by default;
 * 403 for what the person may not do, 409 for what may not be done now, 429 for a limit reached.
 */
export class WorkflowInputError extends Error {
  override name = "WorkflowInputError";
  constructor(
    message: string,
    readonly status: 400 | 403 | 409 | 429 = 400,
  ) {
    super(message);
  }
}
