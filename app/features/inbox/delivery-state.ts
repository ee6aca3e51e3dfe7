/**
 * A submission's deliveries summed up in one word for the inbox: all delivered, still being tried, given up
 * on, held back (as spam, or for a target no longer set), or none at all (no target was configured when it came in).
 */
export const DELIVERY_STATES = ["delivered", "retrying", "failed", "held", "none"] as const;

export type DeliveryState = (typeof DELIVERY_STATES)[number];

export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  delivered: "Delivered",
  retrying: "Retrying",
  failed: "Failed",
  held: "Held",
  none: "Not sent",
};
