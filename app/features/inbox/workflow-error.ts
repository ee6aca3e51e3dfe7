/** A staff change refused because of what was asked (a status the type lacks, an unknown user): a 400. */
export class WorkflowInputError extends Error {
  override name = "WorkflowInputError";
}
