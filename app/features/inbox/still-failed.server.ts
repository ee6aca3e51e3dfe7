import { sql } from "drizzle-orm";

/**
 * Whether a delivery row of an outer query over `deliveries` (not aliased) failed and is still where its message
 * stands: no later send of the same message (a retry or a replay: same submission, same webhook-id) came after
 * it. A later send that is under way or delivered ends the failure; one that failed too takes its place.
 * Table-qualified by hand: drizzle leaves out table names when a query reads one table, and a bare column inside
 * the subquery would be the later row's own.
 */
export const stillFailed = sql`(deliveries.status = 'failed' AND NOT EXISTS (
  SELECT 1 FROM deliveries AS later
  WHERE later.submission_id = deliveries.submission_id AND later.webhook_id = deliveries.webhook_id
    AND later.id > deliveries.id))`;

/** Whether no staff user has acknowledged the failure of a delivery row of an outer query over `deliveries`. */
export const notAcknowledged = sql`NOT EXISTS (
  SELECT 1 FROM delivery_failure_acknowledgements AS acknowledged WHERE acknowledged.delivery_id = deliveries.id)`;
