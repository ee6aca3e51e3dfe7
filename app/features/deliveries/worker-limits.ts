/**
 * The most sends the delivery worker has in flight to one target unless told otherwise (and the width of the
 * SMTP connection pool). At 10, an office email sent beside 200 others waited 1.1 s at p99 on a 2-core machine;
 * at 20, 0.55 s (the fault suite's "slow target beside a fast one").
 */
export const DEFAULT_PER_TARGET_LIMIT = 20;

/**
 * The most sends in flight at once: room for a dozen targets at their limit together (the nine webhooks, email
 * and texts), so that when every webhook hangs (one automation server down) email and texts still go out.
 */
export const DEFAULT_MAX_IN_FLIGHT = 12 * DEFAULT_PER_TARGET_LIMIT;
