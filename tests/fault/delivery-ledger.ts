import type pg from "pg";
import type { WebhookReceiver } from "../support/webhook-receiver";

/** One line of the fault suite's table. */
export type FaultRow = {
  scenario: string;
  /** Posts answered with a reference number. */
  acknowledged: number;
  /** Of those, found in the database. */
  stored: number;
  /** Of those, marked delivered and accepted (2xx) by the receiver under their webhook-id. */
  delivered: number;
  /** Webhook-ids the receiver accepted more than once (allowed: delivery is at least once). */
  duplicates: number;
  /** Acknowledged but not stored and delivered: must be 0. */
  lost: number;
  note?: string;
};

type DeliveryState = { reference: string; webhookId: string; status: string };

/** Every estimate webhook delivery of the given references, as the database has it. */
export async function deliveriesOf(pool: pg.Pool, references: readonly string[]): Promise<DeliveryState[]> {
  const result = await pool.query<{ reference: string; webhook_id: string; status: string }>(
    `SELECT s.reference, d.webhook_id, d.status FROM submissions s JOIN deliveries d ON d.submission_id = s.id
     WHERE s.reference = ANY($1) AND d.target = 'WEBHOOK_ESTIMATE_URL'`,
    [references],
  );
  return result.rows.map((row) => ({ reference: row.reference, webhookId: row.webhook_id, status: row.status }));
}

/** True once every reference has a delivered webhook delivery. */
export async function allDelivered(pool: pg.Pool, references: readonly string[]): Promise<boolean> {
  const rows = await deliveriesOf(pool, references);
  const delivered = new Set(rows.filter((row) => row.status === "delivered").map((row) => row.reference));
  return references.every((reference) => delivered.has(reference));
}

/** Reconciles what visitors were told, what the database holds and what the receiver accepted. */
export async function reconcile(
  scenario: string,
  pool: pg.Pool,
  receiver: WebhookReceiver,
  references: readonly string[],
): Promise<FaultRow> {
  const rows = await deliveriesOf(pool, references);
  const accepted = new Map<string, number>();
  for (const request of receiver.requests) {
    const status = request.answeredStatus ?? 0;
    if (status < 200 || status >= 300) continue;
    const id = String(request.headers["webhook-id"]);
    accepted.set(id, (accepted.get(id) ?? 0) + 1);
  }
  const stored = new Set(rows.map((row) => row.reference));
  const delivered = new Set(
    rows.filter((row) => row.status === "delivered" && accepted.has(row.webhookId)).map((row) => row.reference),
  );
  const duplicates = [...accepted.values()].filter((count) => count > 1).length;
  const lost = references.filter((reference) => !stored.has(reference) || !delivered.has(reference)).length;
  return {
    scenario,
    acknowledged: references.length,
    stored: references.filter((reference) => stored.has(reference)).length,
    delivered: delivered.size,
    duplicates,
    lost,
  };
}

/** Every request the receiver got carried the webhook-id of a stored delivery, with the same body each time. */
export async function sameWebhookIdAcrossRetries(pool: pg.Pool, receiver: WebhookReceiver): Promise<boolean> {
  const known = new Set(
    (await pool.query<{ webhook_id: string }>("SELECT webhook_id FROM deliveries")).rows.map((row) => row.webhook_id),
  );
  const bodies = new Map<string, string>();
  for (const request of receiver.requests) {
    const id = String(request.headers["webhook-id"]);
    if (!known.has(id)) return false;
    const body = bodies.get(id);
    if (body !== undefined && body !== request.body) return false;
    bodies.set(id, request.body);
  }
  return true;
}

export function formatFaultTable(rows: readonly FaultRow[]): string {
  const header = ["scenario", "acknowledged", "stored", "delivered", "duplicates", "lost", "note"];
  const cells = rows.map((row) => [
    row.scenario,
    String(row.acknowledged),
    String(row.stored),
    String(row.delivered),
    String(row.duplicates),
    String(row.lost),
    row.note ?? "",
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]?.length ?? 0)),
  );
  const line = (values: string[]) =>
    `| ${values.map((value, column) => value.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  return [line(header), `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`, ...cells.map(line)].join("\n");
}
