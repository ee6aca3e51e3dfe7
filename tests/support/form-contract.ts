import { describe, expect, it } from "vitest";
import { fieldCells, fieldLabelsFor } from "../../app/features/inbox/export-csv.server";
import type { AnyFormDefinition } from "../../app/forms/definition";
import { outgoingDeliveries } from "../../app/forms/deliveries.server";
import { answerRows } from "../../app/forms/print-answer";
import { encodeJsonWithStoredFiles, storedFileFieldsOf } from "../../app/outbox/stored-file-json.server";
import { loadConfig } from "../../app/services/config.server";

/** A stored payload of the form, as its action stores it, and the keys docs/spec.md §7 gives each of its webhooks. */
export type ContractExample = { payload: Record<string, unknown>; webhookKeys: Record<string, readonly string[]> };

const STORED = {
  reference: "TST-000001",
  submittedAt: "2026-03-05T14:00:00.000Z",
  files: [
    { fieldName: "resume", fileName: "resume.pdf" },
    { fieldName: "pdf", fileName: "peer-review-Nguyễn-Văn-An.pdf" },
    { fieldName: "photos", fileName: "IMG_0001.jpg" },
  ],
};

const keysOf = (body: unknown): string[] =>
  typeof body === "object" && body !== null && "parts" in body
    ? (body as { parts: Array<{ name: string }> }).parts.map((part) => part.name)
    : Object.keys(body as object);

/**
 * Holds a form to its contract, from the contract test in its own folder: each webhook sends exactly the keys
 * of docs/spec.md §7, and each answer prints the same in the inbox, the CSV export and every email.
 */
export function describeFormContract(definition: AnyFormDefinition, example: ContractExample) {
  // Every webhook and email target set, so that every delivery the definition describes is made.
  const config = loadConfig({
    SESSION_SECRET: "contract-test-secret-that-is-long-enough-0123",
    SMTP_URL: "smtp://127.0.0.1:9",
    MAIL_FROM: "Website <website@example.com>",
    STAFF_NOTIFY_EMAIL: "office@example.com",
    ESTIMATE_SCHEDULER_EMAIL: "pm@example.com",
    ...Object.fromEntries(
      definition.deliveries.flatMap((delivery) =>
        delivery.channel === "webhook" ? [[delivery.target, `http://127.0.0.1:9/${delivery.target}`]] : [],
      ),
    ),
  });
  const deliveries = () => outgoingDeliveries(definition, example.payload, STORED, config);

  describe(`the ${definition.type} contract`, () => {
    it("sends each webhook exactly the keys of spec §7", () => {
      const webhooks = deliveries().filter((delivery) => delivery.channel === "webhook");
      expect(Object.fromEntries(webhooks.map((delivery) => [delivery.target, keysOf(delivery.body)]))).toEqual(
        example.webhookKeys,
      );
    });

    it("sends each JSON webhook with its stored files, and with null or an empty list where an optional file was not sent", () => {
      const webhooks = deliveries().filter(
        (delivery) =>
          delivery.channel === "webhook" &&
          !(typeof delivery.body === "object" && delivery.body !== null && "parts" in delivery.body),
      );
      for (const webhook of webhooks) {
        const fields = [...storedFileFieldsOf(webhook.body)];
        const stored = fields.map((fieldName) => ({ fieldName, content: Buffer.from(`bytes of ${fieldName}`) }));
        const withFiles = JSON.stringify(
          JSON.parse(new TextDecoder().decode(encodeJsonWithStoredFiles(webhook.body, stored).bytes)),
        );
        const without = new TextDecoder().decode(encodeJsonWithStoredFiles(webhook.body, []).bytes);
        for (const fieldName of fields)
          expect(withFiles).toContain(Buffer.from(`bytes of ${fieldName}`).toString("base64"));
        expect(without).not.toMatch(/storedFiles?Base64/);
        expect((without.match(/:(null|\[\])/g) ?? []).length).toBeGreaterThanOrEqual(fields.length);
      }
    });

    it("prints each answer the same in the inbox, the CSV export and every email", () => {
      const inbox = answerRows(definition, example.payload);
      const labels = fieldLabelsFor(definition.type);
      const csv = fieldCells(definition.type, example.payload, labels);
      expect(inbox.map(([label]) => label)).toEqual(labels);
      expect(inbox.map(([, answer]) => answer)).toEqual(csv);
      // The notifications that list every answer; a personal email (a team message) carries only its text,
      // and an email that chose its rows (the applicant's receipt, which lists none) only those.
      const notifications = new Set(
        definition.deliveries.flatMap((delivery) =>
          delivery.channel === "email" && !delivery.rows ? [delivery.target] : [],
        ),
      );
      const emails = deliveries().filter(
        (delivery) => delivery.channel === "email" && notifications.has(delivery.target),
      );
      for (const email of emails) {
        const text = (email.body as { text: string }).text;
        for (const [label, answer] of inbox) expect(text).toContain(`${label}: ${answer}`);
      }
    });
  });
}
