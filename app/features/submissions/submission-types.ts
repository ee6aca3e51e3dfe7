import { ASSESSMENT_FIELD_LABELS } from "~/features/assessment/questions";
import { APPLICATION_FIELD_LABELS } from "~/features/careers/fields";
import { ESTIMATE_FIELD_LABELS } from "~/features/estimate/fields";

export type SubmissionContact = { name: string; email: string; phone: string };

/** One field of a stored submission as staff see it: the form's label and how to read it from the payload. */
export type SubmissionField = { label: string; read: (payload: Record<string, unknown>) => string };

/**
 * How the staff tools show and handle one kind of submission. A new form joins the inbox, its filters and
 * its export by adding a description here; nothing else is copied per type.
 */
export type SubmissionTypeDescription = {
  type: string;
  label: string;
  /** The workflow, in order. The first is where a new submission starts and means "not handled yet". */
  statuses: readonly [string, ...string[]];
  fields: readonly SubmissionField[];
  contact: (payload: Record<string, unknown>) => SubmissionContact;
};

const text = (value: unknown) => (value === undefined || value === null ? "" : String(value));

const fieldsFromLabels = (labels: Readonly<Record<string, string>>): SubmissionField[] =>
  Object.entries(labels).map(([key, label]) => ({ label, read: (payload) => text(payload[key]) }));

const namedContact = (payload: Record<string, unknown>): SubmissionContact => ({
  name: `${text(payload.firstName)} ${text(payload.lastName)}`.trim(),
  email: text(payload.email),
  phone: text(payload.phone),
});

const answerOf = (payload: Record<string, unknown>, id: string) =>
  text((payload.answers as Record<string, unknown> | undefined)?.[id]);

export const submissionTypes: readonly SubmissionTypeDescription[] = [
  {
    type: "estimate",
    label: "Estimate request",
    statuses: ["New", "Contacted", "Scheduled", "Won", "Lost", "Archived"],
    fields: fieldsFromLabels(ESTIMATE_FIELD_LABELS),
    contact: namedContact,
  },
  {
    type: "application",
    label: "Job application",
    statuses: ["Received", "Reviewing", "Interview", "Hired", "Rejected"],
    fields: fieldsFromLabels(
      Object.fromEntries(Object.entries(APPLICATION_FIELD_LABELS).filter(([key]) => key !== "resume")),
    ),
    contact: namedContact,
  },
  {
    type: "assessment",
    label: "Skills assessment",
    statuses: ["New", "Reviewed", "Archived"],
    fields: [
      ...Object.entries(ASSESSMENT_FIELD_LABELS).map(([id, label]) => ({
        label,
        read: (payload: Record<string, unknown>) => answerOf(payload, id),
      })),
      {
        label: "Score",
        read: (payload) => {
          const score = payload.score as { correct?: number; total?: number; percentage?: number } | undefined;
          return score ? `${score.correct} of ${score.total} (${score.percentage}%)` : "";
        },
      },
    ],
    contact: (payload) => ({
      name: answerOf(payload, "1"),
      email: answerOf(payload, "2"),
      phone: answerOf(payload, "3"),
    }),
  },
];

/** The description of a type; an unknown type (a form removed since) still shows its raw fields. */
export function describeSubmissionType(type: string): SubmissionTypeDescription {
  return (
    submissionTypes.find((description) => description.type === type) ?? {
      type,
      label: type,
      statuses: ["New", "Archived"],
      fields: [],
      contact: () => ({ name: "", email: "", phone: "" }),
    }
  );
}
