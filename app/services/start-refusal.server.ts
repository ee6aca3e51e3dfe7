/**
 * A reason the app will not start that the operator can fix (a busy port, a data directory in use or out of
 * reach). The start prints its message as one plain line and exits 1, with no stack trace.
 */
export class StartRefusal extends Error {
  override name = "StartRefusal";
}
