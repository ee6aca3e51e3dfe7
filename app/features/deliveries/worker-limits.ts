/** The most sends the delivery worker has in flight to one target unless told otherwise. */
export const DEFAULT_PER_TARGET_LIMIT = 10;
