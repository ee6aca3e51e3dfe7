import * as z from "zod/mini";
import { REQUIRED_MESSAGE, textField } from "~/forms/text-field";
import { PEER_REVIEW_STATEMENTS, statementFieldName } from "./fields";
import { RATINGS } from "./ratings";

export const REVIEW_FOR_MAX_LENGTH = 120;

const rating = z.enum(RATINGS, {
  error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : "Choose 1 to 5, or NE"),
});

/** One rating per statement, q1 to q15: every statement must be answered (spec §5). */
const statementRatings = Object.fromEntries(
  PEER_REVIEW_STATEMENTS.map((_statement, index) => [statementFieldName(index), rating]),
) as Record<`q${number}`, typeof rating>;

/** The peer review questionnaire: one schema for the browser and the server. */
export const peerReviewSchema = z.object({
  reviewFor: textField("Peer Review for", REVIEW_FOR_MAX_LENGTH),
  date: z.iso.date({ error: (issue) => (issue.input === undefined ? REQUIRED_MESSAGE : "Enter a date") }),
  ...statementRatings,
});

export type PeerReviewAnswers = z.infer<typeof peerReviewSchema>;
