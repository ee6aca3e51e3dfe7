import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import { APPLICATION_PARTS, validApplication } from "#tests/application-fixture";
import { assessmentAnswers } from "#tests/assessment-fixture";
import { checklistAnswers } from "#tests/checklist-fixture";
import { validEstimate } from "#tests/estimate-fixture";
import { allRated } from "#tests/peer-review-fixture";
import {
  ESTIMATE_REQUEST_WEBHOOK_KEYS,
  JOB_REQUEST_WEBHOOK_KEYS,
  storedJobRequest,
  validEstimateRequest,
} from "#tests/staff-request-fixture";
import { fieldCells, fieldLabelsFor } from "~/features/inbox/export-csv.server";
import { submissionTypes } from "~/features/submission-types.server";
import type { AnyFormDefinition } from "~/forms/definition";
import { outgoingDeliveries } from "~/forms/deliveries.server";
import { answerRows } from "~/forms/print-answer";
import { loadConfig } from "~/server/config.server";

/**
 * One stored payload per registered type, as its action stores it. A new form registers its definition and
 * adds its example here, with the webhook keys of spec §7: the checks below then hold it to the contract.
 */
const EXAMPLES: Record<string, { payload: Record<string, unknown>; webhookKeys: Record<string, readonly string[]> }> = {
  estimate: {
    payload: validEstimate,
    webhookKeys: {
      WEBHOOK_ESTIMATE_URL: [
        "firstName",
        "lastName",
        "email",
        "phone",
        "city",
        "projectType",
        "formOfContact",
        "bestTime",
        "comments",
      ],
    },
  },
  application: {
    payload: { ...validApplication, experienceLevel: 0 },
    webhookKeys: {
      WEBHOOK_APPLICATION_URL: APPLICATION_PARTS,
      WEBHOOK_APPLICATION_SECONDARY_URL: APPLICATION_PARTS,
    },
  },
  assessment: {
    payload: { answers: assessmentAnswers(10), score: { correct: 10, total: 15, percentage: 67 } },
    webhookKeys: { WEBHOOK_ASSESSMENT_URL: ["answers", "score"] },
  },
  "team-message": {
    payload: {
      subject: "Storm crew",
      body: "Meet at the yard at 6 pm.",
      recipients: [
        { id: 7, name: "Ana Ruiz", email: "ana@example.com", phoneNumber: "+18035550101" },
        { id: 8, name: "Ben Okafor", email: null, phoneNumber: "+18035550102" },
      ],
      sentAt: "2026-03-05T14:00:00.000Z",
    },
    webhookKeys: { WEBHOOK_TEAM_MESSAGE_URL: ["subject", "message", "recipients", "timestamp", "sender"] },
  },
  "peer-review": {
    payload: { reviewFor: "Nguyễn Văn An", date: "2026-03-05", answers: [...allRated("4")], average: "4.00" },
    webhookKeys: { WEBHOOK_PEER_REVIEW_URL: ["reviewFor", "date", "answers", "average", "pdf", "submittedAt"] },
  },
  "estimate-checklist": {
    payload: checklistAnswers,
    webhookKeys: {
      WEBHOOK_CHECKLIST_URL: [
        "fillerName",
        "fillerEmail",
        "projectName",
        "timestamp",
        "filename",
        "pdfBase64",
        "formData",
        "photoCount",
      ],
    },
  },
  "estimate-request": {
    payload: validEstimateRequest,
    webhookKeys: {
      WEBHOOK_ESTIMATE_INTERNAL_URL: ESTIMATE_REQUEST_WEBHOOK_KEYS,
    },
  },
  "job-request": {
    payload: storedJobRequest,
    webhookKeys: {
      WEBHOOK_JOB_REQUEST_URL: JOB_REQUEST_WEBHOOK_KEYS,
    },
  },
};

const STORED = {
  reference: "TST-000001",
  submittedAt: "2026-03-05T14:00:00.000Z",
  files: [
    { fieldName: "resume", fileName: "resume.pdf" },
    { fieldName: "pdf", fileName: "peer-review-Nguyễn-Văn-An.pdf" },
    { fieldName: "photos", fileName: "IMG_0001.jpg" },
  ],
};

/** Every webhook and email target set, so that every delivery a definition describes is made. */
const config = loadConfig({
  SESSION_SECRET: "contract-test-secret-that-is-long-enough-0123",
  SMTP_URL: "smtp://127.0.0.1:9",
  MAIL_FROM: "Website <website@example.com>",
  STAFF_NOTIFY_EMAIL: "office@example.com",
  ESTIMATE_SCHEDULER_EMAIL: "pm@example.com",
  ...Object.fromEntries(
    submissionTypes.flatMap((definition) =>
      definition.deliveries.flatMap((delivery) =>
        delivery.channel === "webhook" ? [[delivery.target, `http://127.0.0.1:9/${delivery.target}`]] : [],
      ),
    ),
  ),
});

const keysOf = (body: unknown): string[] =>
  typeof body === "object" && body !== null && "parts" in body
    ? (body as { parts: Array<{ name: string }> }).parts.map((part) => part.name)
    : Object.keys(body as object);

describe.each(submissionTypes.map((definition) => [definition.type, definition] as const))(
  "the %s definition",
  (type, definition: AnyFormDefinition) => {
    const example = EXAMPLES[type];

    it("has an example payload and the spec's webhook keys in this contract", () => {
      expect(example, `add an example for "${type}" to EXAMPLES`).toBeDefined();
    });

    it("labels every field its schema reads, and reads every labelled field from the schema or the payload", () => {
      const shape = (definition.schema as unknown as z.ZodMiniObject).def.shape;
      const schemaKeys = Object.keys(shape);
      const fieldNames = definition.fields.map((field) => field.name);
      expect(new Set(fieldNames).size, "a field is listed twice").toBe(fieldNames.length);
      for (const key of schemaKeys) expect(fieldNames, `no label for ${key}`).toContain(key);
      for (const field of definition.fields) {
        const known = schemaKeys.includes(field.name) || field.read !== undefined;
        expect(known, `${field.name} is neither in the schema nor read from the payload`).toBe(true);
        expect(field.label.trim()).not.toBe("");
      }
    });

    it("sends each webhook exactly the keys of spec §7", () => {
      if (!example) return;
      const webhooks = outgoingDeliveries(definition, example.payload, STORED, config).filter(
        (delivery) => delivery.channel === "webhook",
      );
      expect(Object.fromEntries(webhooks.map((delivery) => [delivery.target, keysOf(delivery.body)]))).toEqual(
        example.webhookKeys,
      );
    });

    it("prints each answer the same in the inbox, the CSV export and every email", () => {
      if (!example) return;
      const inbox = answerRows(definition, example.payload);
      const labels = fieldLabelsFor(type);
      const csv = fieldCells(type, example.payload, labels);
      expect(inbox.map(([label]) => label)).toEqual(labels);
      expect(inbox.map(([, answer]) => answer)).toEqual(csv);
      // The notifications that list every answer; a personal email (a team message) carries only its text,
      // and an email that chose its rows (the applicant's receipt, which lists none) only those.
      const notifications = new Set(
        definition.deliveries.flatMap((delivery) =>
          delivery.channel === "email" && !delivery.rows ? [delivery.target] : [],
        ),
      );
      const emails = outgoingDeliveries(definition, example.payload, STORED, config).filter(
        (delivery) => delivery.channel === "email" && notifications.has(delivery.target),
      );
      for (const email of emails) {
        const text = (email.body as { text: string }).text;
        for (const [label, answer] of inbox) expect(text).toContain(`${label}: ${answer}`);
      }
    });
  },
);

describe("the definitions", () => {
  const featuresDir = path.join(import.meta.dirname, "features");
  const definitionFiles = readdirSync(featuresDir, { recursive: true, encoding: "utf8" }).filter(
    (file) => path.basename(file) === "definition.ts",
  );

  it("are all registered, so no form's submissions are missing from the inbox", () => {
    expect(definitionFiles.length).toBe(submissionTypes.length);
  });

  it("import nothing server-only, since the form's page imports its definition into the browser", () => {
    for (const file of definitionFiles) {
      const source = readFileSync(path.join(featuresDir, file), "utf8");
      const imports = [...source.matchAll(/from "([^"]+)"/g)].map((match) => match[1] ?? "");
      for (const imported of imports) {
        expect(imported.endsWith(".server"), `${file} imports ${imported}`).toBe(false);
      }
    }
  });
});
