import type * as z from "zod/mini";
import type { OutgoingDelivery } from "~/outbox/submission-store.server";
import type { Config, PhoneSetting, WebhookSetting } from "~/services/config.server";
import type { StaffRole } from "~/services/db/schema.server";
import type { FileType, FileTypeName } from "./file-types";
import type { FormMessages } from "./messages";

/** Who may send a form: anyone (rate limit, honeypot, fill time) or signed-in staff (session and role). */
export type Audience = "public" | "staff";

/** How a field is asked and read back; the kit renders each kind, the answer printer prints it. */
export type FieldKind =
  | "text"
  | "email"
  | "tel"
  | "textarea"
  | "select"
  | "radio"
  | "yesNo"
  | "date"
  | "time"
  | "number"
  | "money"
  | "file";

/** A choice of a radio question; its `note` shows beside it while it is chosen (with or without scripts). */
export type FieldOption = { value: string; label: string; note?: string };

/** One question of a form: the one source of its label for the form, the inbox, the CSV, the emails and PDFs. */
export type FieldDefinition = {
  name: string;
  label: string;
  kind: FieldKind;
  /** The heading of the section it sits in, for forms laid out in sections. */
  section?: string;
  optional?: boolean;
  options?: readonly FieldOption[];
  hint?: string;
  placeholder?: string;
  autoComplete?: string;
  /** Textarea height. */
  rows?: number;
  /** Spans both columns where the form has two. */
  wide?: boolean;
  /** Where the answer sits in the stored payload, when not at `payload[name]`. */
  read?: (payload: Record<string, unknown>) => unknown;
  /** A file field's rule (field-builders' `file` and `photo`): the browser's check and the server's, written once. */
  accepts?: FileAcceptance;
  /** The keyboard a phone shows, where the kind's own does not fit (digits only for a ZIP code). */
  inputMode?: "numeric" | "decimal" | "tel" | "email" | "text";
  /**
   * A warning, never a refusal (soft-checks.ts): the answer is looked at once more before it is sent (a date
   * already past, a phone number too short), and sent as it is on a second press.
   */
  softCheck?: SoftCheck;
  /** The answer this person sent last on this device fills the field, when empty, on their next form. */
  keptForNext?: true;
};

/** What a soft check says of an answer it would have looked at again, or undefined when it has nothing to say. */
export type SoftCheck = (answer: string) => string | undefined;

/** What a person is told beside a file field whose file is refused, in the browser and by the server alike. */
export type FileMessages = { tooLarge: string; tooMany: string; wrongType: string };

/** What a file field accepts; the content is judged by its bytes, never by its name. */
export type FileAcceptance = {
  type: FileType;
  maxBytes: number;
  maxCount: number;
  messages: FileMessages;
  /**
   * A photo field. Each photo is cleaned in the work pool (upright, its metadata gone) within PHOTO_MAX_PIXELS
   * and its submission's SUBMISSION_MAX_PIXELS, with a thumbnail of at most `thumbnail` pixels when the form's
   * document prints one. Photos may go up one by one while the form is filled (resumable-uploads.ts) and are
   * cleaned as each one completes; the post then names them instead of carrying them. A photo that cannot be
   * cleaned is left out, and the answer says which and why.
   */
  photos?: { thumbnail?: ThumbnailBox };
};

export type ThumbnailBox = { width: number; height: number };

/** What the body reader and the pipeline need of a file field: its name, limits and the type its bytes show. */
export type FileRule = {
  field: string;
  maxBytes: number;
  maxCount: number;
  /** What its files must be, by their first bytes (file-sniffing.server.ts). */
  type: FileTypeName;
  messages: FileMessages;
  photos?: FileAcceptance["photos"];
};

export type SubmissionContact = { name: string; email: string; phone: string };

/**
 * What a delivery may quote of the stored submission: its reference, when it was submitted (ISO time) and
 * the names of its stored files.
 */
export type StoredSubmissionFacts = {
  reference: string;
  submittedAt: string;
  files: readonly { fieldName: string; fileName: string }[];
};

/** A webhook the submission is posted to, with its body in the exact shape the automation expects. */
export type WebhookDelivery<Payload> = {
  channel: "webhook";
  /** The setting that names the target; unset, this kind of submission is stored only. */
  target: WebhookSetting;
  /** What the target receives, for the settings' documentation and the startup log: "public estimate requests". */
  receives: string;
  /** JSON unless said otherwise; multipart sends the stored files with the fields. */
  format?: "json" | "multipart";
  body: (payload: Payload, stored: StoredSubmissionFacts) => unknown;
};

/**
 * An email the submission sends: its answers as a table of the form's labels and printed answers. `to`
 * reads the address from the configuration or the payload; no address, no email.
 */
export type EmailNotification<Payload> = {
  channel: "email";
  /** The name this delivery is known by in the inbox: a setting (STAFF_NOTIFY_EMAIL) or a role. */
  target: string;
  to: (payload: Payload, config: Config) => string | undefined;
  subject: (payload: Payload, reference: string) => string;
  intro: (payload: Payload) => string;
  replyTo?: (payload: Payload, config: Config) => string | undefined;
  /** Only the rows this email shows; all of the form's fields when left out. */
  rows?: (payload: Payload) => Array<[label: string, value: string]>;
  /** The submission's stored files attached to the email, by field name (its PDF), read when it is sent. */
  attachStoredFiles?: readonly string[];
  /**
   * For an address the sender typed (a receipt): at most this many such emails to one address a day, so the
   * form cannot be used to mail a stranger again and again. Over it the email is not sent, and the
   * submission's history says so.
   */
  dailyLimitPerRecipient?: number;
  /** Invites its recipient to the form's `calendarEvent` (an iCalendar METHOD:REQUEST part), when it sets one. */
  sendsInvite?: true;
};

/**
 * An appointment a submission sets: a date (YYYY-MM-DD) and, for a timed one, a time (HH:MM), both on the
 * company's clock. Sent as an invite by the emails that say so, and listed in the staff's calendar feeds.
 */
export type AppointmentEvent = {
  title: string;
  location: string;
  date: string;
  time?: string;
  /** The work to do; the invite's DESCRIPTION adds the contact, the notes and the reference below it. */
  description?: string;
  contactPerson?: string;
  contactPhone?: string;
  /** Site conditions, a lock box code, scheduling info: what the project manager needs on site. */
  notes?: string;
};

/** One message to one person, written for them: an email to an address, or a text to a mobile (E.164). */
export type PersonalMessage =
  | { channel: "email"; name: string; to: string; subject: string; text: string }
  | { channel: "sms"; name: string; to: string; text: string };

/**
 * Deliveries whose recipients vary with each submission (a team message): one email or text per person, made
 * from the payload, each a delivery of its own so one person who cannot be reached never holds up the others.
 * Emails need SMTP_URL and texts the TWILIO_* settings; without them that channel is left out.
 */
export type PersonalDeliveries<Payload> = {
  channel: "personal";
  messages: (payload: Payload, stored: StoredSubmissionFacts) => PersonalMessage[];
};

/**
 * A push notification of each new submission to every staff device that chose this form (on the settings page)
 * and whose person may read it. Quiet hours (NEW_LEAD_QUIET_HOURS) push to no device. It says only what its
 * reader may see in the inbox, and opens the submission there.
 */
export type PushNotification<Payload> = {
  channel: "push";
  /** "New estimate request: Dana Reyes, Sumter, commercial" */
  title: (payload: Payload) => string;
  /** A second line; empty by default. */
  body?: (payload: Payload) => string;
  /** The number the notification's Call action dials, when it is a valid North American number. */
  call?: (payload: Payload) => string | undefined;
  /** Whose devices hear of it once they turn notifications on, until they choose otherwise (default: nobody's). */
  onByDefaultFor?: StaffRole;
};

/**
 * A text for each new submission to the phone a setting names (NEW_LEAD_SMS_TO), quiet hours or not. Like a
 * push's title and body, its words are given the answers as plain capped lines (notification-text.ts), a phone
 * answer as a number to call or empty.
 */
export type SettingText<Payload> = {
  channel: "sms";
  target: PhoneSetting;
  text: (payload: Payload, stored: StoredSubmissionFacts) => string;
};

/** A delivery a stored submission has: where it goes, by which channel, under which setting or name. */
export type StoredDelivery = Pick<OutgoingDelivery, "channel" | "target" | "destination">;

/**
 * What a stored submission's answer says happened to it: the form's own words (`messages.success`) where what
 * they say happened, otherwise what did happen. `sent` is false when the words tell of something not sent
 * (a service or webhook not set up); either way the submission is stored and its answer gives the reference.
 */
export type SentOutcome = { sent: boolean; message: string };

export type DeliveryDefinition<Payload> =
  | WebhookDelivery<Payload>
  | EmailNotification<Payload>
  | PersonalDeliveries<Payload>
  | PushNotification<Payload>
  | SettingText<Payload>;

/**
 * A form, described once: what it is, who may send it, what it asks, how its answers are checked and stored,
 * and where each submission goes. The form, its action, the inbox, the CSV, the emails and the PDFs read it.
 */
export type FormDefinition<Schema extends z.ZodMiniType = z.ZodMiniType, Payload = Record<string, unknown>> = {
  type: string;
  label: string;
  /** The letters before the reference number: EST-7K3QX9. */
  referencePrefix: string;
  audience: Audience;
  /** The workflow, in order. The first is where a new submission starts and means "not handled yet". */
  statuses: readonly [string, ...string[]];
  schema: Schema;
  fields: readonly FieldDefinition[];
  contact: (payload: Payload) => SubmissionContact;
  /** The file fields' rules, from their definitions (defineForm). */
  files: readonly FileRule[];
  /** The whole posted body, files included. */
  maxBodyBytes: number;
  messages: FormMessages;
  deliveries: readonly DeliveryDefinition<Payload>[];
  /**
   * The answer's words from the submission's stored deliveries, for a form whose words say where it was sent
   * ("PDF generated and sent to webhook successfully!"): the spec's words only when that is what happened.
   * Without it the form's `messages.success`, which says no more than that the submission was stored.
   */
  outcome?: (sent: { payload: Payload; deliveries: readonly StoredDelivery[] }) => SentOutcome;
  /**
   * The appointment a submission sets, if its form sets one: the invite its `sendsInvite` emails carry and the
   * event in the calendar feed of every staff user who may read it (app/features/calendar-feed).
   */
  calendarEvent?: (payload: Payload) => AppointmentEvent | undefined;
  /** The statuses in which the appointment no longer takes place: the feeds mark its event cancelled. */
  cancelledStatuses?: readonly string[];
  /**
   * Whether a new submission waits for someone to act on it, and so counts as new in the inbox. A message staff
   * sent out does not (default true).
   */
  needsHandling?: boolean;
  /** Files kept only for a while once the submission reaches this status (RESUME_RETENTION_DAYS). */
  fileRetention?: { afterStatus: string };
  /**
   * Who may read the stored submissions in the inbox (list, detail, files, CSV): every staff user unless
   * said otherwise. Whoever submitted one may still download the document it made.
   */
  readableBy?: StaffRole;
  /** A staff form whose submissions record nothing of their sender: no user, address or browser (the peer review). */
  anonymous?: boolean;
  /** What the inbox search finds it by besides its contact and reference (a job's name and address). */
  searchTerms?: (payload: Payload) => string;
  /**
   * Who may take the submissions away in a CSV file: every staff user unless said otherwise. Applicant data
   * (applications, assessments) only admins export, though staff read it in the inbox.
   */
  exportableBy?: StaffRole;
};

/** Any form's definition, as the inbox and the pipeline see it. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds definitions of every payload type; each form's own code keeps its precise one
export type AnyFormDefinition = FormDefinition<z.ZodMiniType, any>;

/** Names a form's definition, keeping its precise types; its file rules come from its file fields. */
export function defineForm<Schema extends z.ZodMiniType, Payload>(
  definition: Omit<FormDefinition<Schema, Payload>, "files">,
): FormDefinition<Schema, Payload> {
  return { ...definition, files: fileRulesOf(definition.fields) };
}

/** The rules of a form's file fields, in its order. */
function fileRulesOf(fields: readonly FieldDefinition[]): FileRule[] {
  return fields.flatMap(({ name, accepts }) =>
    accepts
      ? [
          {
            field: name,
            maxBytes: accepts.maxBytes,
            maxCount: accepts.maxCount,
            type: accepts.type.name,
            messages: accepts.messages,
            photos: accepts.photos,
          },
        ]
      : [],
  );
}

/** Whether a staff user of `role` may read a form's stored submissions: admins read every form's. */
export function mayRead(definition: Pick<AnyFormDefinition, "readableBy">, role: StaffRole): boolean {
  return role === "admin" || (definition.readableBy ?? "staff") === "staff";
}

/** The roles whose people may read a form's stored submissions. */
export function rolesThatMayRead(definition: Pick<AnyFormDefinition, "readableBy">): StaffRole[] {
  return (["admin", "staff"] as const).filter((role) => mayRead(definition, role));
}
