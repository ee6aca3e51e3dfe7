/** One person a message went to, as docs/spec.md §7's webhook names them. */
export type TeamMessageRecipient = { id: number; name: string; email: string | null; phoneNumber: string | null };

/** A message as stored and delivered: what was written, to whom, and when. */
export type TeamMessage = {
  subject: string;
  body: string;
  recipients: TeamMessageRecipient[];
  /** ISO time the message was sent; the webhook's timestamp. */
  sentAt: string;
};
