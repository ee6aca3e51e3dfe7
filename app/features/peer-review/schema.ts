import type * as z from "zod/mini";
import { computed, formFields, isoDate, radio, text } from "~/forms/field-builders";
import { RATING_MEANINGS, RATINGS } from "./ratings";
import { PEER_REVIEW_STATEMENTS, statementFieldName } from "./statements";

export const REVIEW_FOR_MAX_LENGTH = 120;

const RATING_OPTIONS = RATINGS.map((rating) => ({
  value: rating,
  label: rating === "NE" ? `NE (${RATING_MEANINGS.NE})` : `${rating} (${RATING_MEANINGS[rating]})`,
}));

/**
 * The peer review questionnaire, in its order: one schema for the browser and the server, and its labels. Every
 * statement must be rated (docs/spec.md §5); the ratings are stored as one `answers` list of fifteen, as the original
 * sent them, and each statement's field reads its place in it.
 */
export const { schema: peerReviewSchema, fields: peerReviewFields } = formFields(
  text("reviewFor", "Peer Review for", { max: REVIEW_FOR_MAX_LENGTH, autoComplete: "off" }),
  isoDate("date", "Date"),
  ...PEER_REVIEW_STATEMENTS.map((statement, index) =>
    radio(statementFieldName(index), `${index + 1}. ${statement}`, RATING_OPTIONS, "Choose 1 to 5, or NE", {
      read: (payload) => (Array.isArray(payload.answers) ? payload.answers[index] : undefined),
    }),
  ),
  // Worked out on the server (average.ts), not asked.
  computed("average", "Average score", (payload) => payload.average),
);

export type PeerReviewAnswers = z.infer<typeof peerReviewSchema>;
