import type { FieldDefinition } from "~/forms/definition";
import { RATING_MEANINGS, RATINGS } from "./ratings";

/** The fifteen statements a co-worker is rated on, in the order of the original questionnaire (spec §3). */
export const PEER_REVIEW_STATEMENTS = [
  "Behaves consistently with the company's mission, vision and values.",
  "Is viewed as a person of integrity by co-workers.",
  "Has an attitude of helpfulness toward co-workers.",
  "Complies with company policies and procedures.",
  "Is professional and courteous when communicating with coworkers.",
  "Represents the company positively with customers.",
  "Is interested in developing new skills and growing as a professional.",
  "Follows through on tasks and responsibilities appropriately and on time.",
  "Respects the work and ideas of others.",
  "Is considerate of others' needs.",
  "Accepts responsibility for his or her own actions.",
  "Would make an effective supervisor.",
  "Is comfortable to approach for help or advice.",
  "Stays focused on helping internal and external customers.",
  "Is willing to listen to what others have to say.",
] as const;

/** The form's field for statement `index` (0-based): q1 ... q15. */
export const statementFieldName = (index: number) => `q${index + 1}`;

const RATING_OPTIONS = RATINGS.map((rating) => ({
  value: rating,
  label: rating === "NE" ? `NE (${RATING_MEANINGS.NE})` : `${rating} (${RATING_MEANINGS[rating]})`,
}));

/**
 * The questionnaire's questions, in its order: the one source of their labels. The ratings are stored as
 * one `answers` list of fifteen, as the original sent them; each statement's field reads its place in it.
 */
export const peerReviewFields: readonly FieldDefinition[] = [
  { name: "reviewFor", label: "Peer Review for", kind: "text", autoComplete: "off" },
  { name: "date", label: "Date", kind: "date" },
  ...PEER_REVIEW_STATEMENTS.map(
    (statement, index): FieldDefinition => ({
      name: statementFieldName(index),
      label: `${index + 1}. ${statement}`,
      kind: "radio",
      options: RATING_OPTIONS,
      read: (payload) => (Array.isArray(payload.answers) ? payload.answers[index] : undefined),
    }),
  ),
  // Worked out on the server (average.ts), not asked.
  { name: "average", label: "Average score", kind: "text", read: (payload) => payload.average },
];
