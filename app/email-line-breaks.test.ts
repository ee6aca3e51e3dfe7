import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { applicationSchema } from "~/features/careers/schema";
import { estimateSchema } from "~/features/estimate/schema";
import { checklistSchema } from "~/features/estimate-checklist/schema";
import { estimateRequestSchema } from "~/features/scheduling/estimate-request/schema";
import { jobRequestSchema } from "~/features/scheduling/job-request/schema";
import { assessmentSchema } from "~/features/skills/assessment/schema";
import { directoryEntrySchema } from "~/features/team-communication/directory-schema";
import { fieldTableEmail } from "~/outbox/field-table-email.server";

/** A line break in an address sent as a Reply-To would add a header of its own. The forms meet here. */
const EMAIL_FIELDS: Array<{ form: string; schema: z.ZodMiniType; field: string }> = [
  { form: "estimate", schema: estimateSchema, field: "email" },
  { form: "application", schema: applicationSchema, field: "email" },
  { form: "estimate request", schema: estimateRequestSchema, field: "email" },
  { form: "job request", schema: jobRequestSchema, field: "email" },
  { form: "estimate checklist", schema: checklistSchema, field: "fillerEmail" },
  { form: "estimate checklist", schema: checklistSchema, field: "ownerEmail" },
  { form: "assessment", schema: assessmentSchema, field: "2" },
  { form: "staff directory", schema: directoryEntrySchema, field: "email" },
];

const fieldsWithIssues = (schema: z.ZodMiniType, field: string, value: string) => {
  const result = z.safeParse(schema, { [field]: value });
  return new Set(result.success ? [] : result.error.issues.map((issue) => String(issue.path[0])));
};

describe("an email answer with a line break", () => {
  it.each(EMAIL_FIELDS)("is refused by the $form form's $field", ({ schema, field }) => {
    expect(fieldsWithIssues(schema, field, "eve@example.org").has(field)).toBe(false);
    expect(fieldsWithIssues(schema, field, "eve@example.org\r\nBcc: x@example.org").has(field)).toBe(true);
    expect(fieldsWithIssues(schema, field, "eve@example.org\nBcc: x@example.org").has(field)).toBe(true);
  });
});

describe("an answer's line breaks in an email's text", () => {
  it("never start a line of the table of their own, so no answer can forge a `Label: value` line", () => {
    const email = fieldTableEmail({
      subject: "New estimate request",
      intro: "Jo\r\nPhone: 000 filled in an estimate checklist.",
      reference: "EST-ABC123",
      rows: [
        ["Name", "Jo Bloggs"],
        ["Comments", "First line\r\nEmail: mallory@example.org\nPhone: 555\rLast"],
      ],
    });
    const lines = email.text.split("\n");
    expect(lines.filter((line) => /^\S[^:]*: /.test(line)).map((line) => line.split(":")[0])).toEqual([
      "Name",
      "Comments",
    ]);
    expect(email.text).toContain("Comments: First line\n    Email: mallory@example.org\n    Phone: 555\n    Last");
  });
});
