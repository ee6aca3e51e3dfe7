/**
 * Thrown by a form's payload step when an answer that passed the schema is still not acceptable once the
 * server looks it up (a technician who is no longer on the list): the pipeline answers `status` (400, or 429 for
 * a limit reached) with these problems.
 */
export class PayloadProblem extends Error {
  override name = "PayloadProblem";
  constructor(
    readonly problems: Record<string, string>,
    readonly status: 400 | 429 = 400,
  ) {
    super(Object.values(problems).join(" "));
  }
}
