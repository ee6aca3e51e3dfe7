import { type SQL, sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** Everything any form sent us, as validated, before anyone outside hears of it. */
export const submissions = pgTable(
  "submissions",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    /** What the visitor is told, and what staff search by: EST-7K3QX9. */
    reference: text().notNull().unique(),
    type: text().notNull(),
    /**
     * Makes a resend of the same form (a double click, a retry after a timeout) the same submission: the
     * browser's double-submit key with a fingerprint of the answers it came with (submissionKeyOf).
     */
    submissionKey: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    /** Held as spam (only the honeypot, or staff, do that): stored as evidence, its deliveries held. */
    isSpam: boolean().notNull().default(false),
    spamReason: text(),
    /** Since when it is listed as spam; retention counts its 30 days from here, not from its arrival. */
    spamSince: timestamp({ withTimezone: true }),
    /** Why it looks automated (sent too fast): delivered and listed as usual, with this shown beside it. */
    suspiciousReason: text(),
    clientIp: text(),
    userAgent: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Where staff are with it; the statuses come from its type's description (features/submissions). */
    status: text().notNull(),
    statusChangedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    assigneeId: bigint({ mode: "number" }).references(() => staffUsers.id, { onDelete: "set null" }),
    /** The signed-in staff user who sent a staff form; null for the public forms. */
    submittedById: bigint({ mode: "number" }).references(() => staffUsers.id, { onDelete: "set null" }),
    /** Copied from the payload when stored, so the inbox can list and search without reading every payload. */
    contactName: text().notNull().default(""),
    contactEmail: text().notNull().default(""),
    contactPhone: text().notNull().default(""),
    /** What else its type is searched by (a job's name and address): the definition's searchTerms. */
    searchTerms: text().notNull().default(""),
    /**
     * What the inbox search matches: reference, name, email and phone (also as digits only) and the type's own
     * search terms, folded (lower case, accents removed) by fold_text, an SQL function made by migration 0017.
     */
    searchText: text().generatedAlwaysAs(
      (): SQL =>
        sql`fold_text(${submissions.reference} || ' ' || ${submissions.contactName} || ' ' || ${submissions.contactEmail} || ' ' || ${submissions.contactPhone} || ' ' || regexp_replace(${submissions.contactPhone}, '[^0-9]', '', 'g') || ' ' || ${submissions.searchTerms})`,
    ),
  },
  (table) => [
    uniqueIndex("submissions_type_key_unique").on(table.type, table.submissionKey),
    index("submissions_created_at_idx").on(table.createdAt.desc(), table.id.desc()),
    // The inbox's default view (spam left out), newest first: its pages are found in the index alone.
    index("submissions_not_spam_created_at_idx")
      .on(table.createdAt.desc(), table.id.desc())
      .where(sql`NOT ${table.isSpam}`),
    index("submissions_type_created_at_idx").on(table.type, table.createdAt.desc(), table.id.desc()),
    // The status filter of the default view, and the capped counts of new submissions, read this index alone.
    index("submissions_status_idx").on(table.type, table.status).where(sql`NOT ${table.isSpam}`),
    index("submissions_search_idx").using("gin", sql`${table.searchText} gin_trgm_ops`),
  ],
);

/**
 * How many public submissions each address stored, per minute and per database connection that stored them.
 * A connection runs one statement at a time, so no two posts ever update the same row: posts from one address
 * never wait on each other's commits, and reading an address's count sums a few rows whatever the limit.
 */
export const addressPostCounts = pgTable(
  "address_post_counts",
  {
    /** The sender's address, an IPv6 address by its /64 (clientAddressKey). */
    clientAddress: text().notNull(),
    minute: timestamp({ withTimezone: true }).notNull(),
    /** The PostgreSQL backend that stored them (pg_backend_pid()). */
    connection: integer().notNull(),
    posts: integer().notNull(),
  },
  (table) => [primaryKey({ columns: [table.clientAddress, table.minute, table.connection] })],
);

/** Staff notes on a submission, shown with their author and time. */
export const submissionNotes = pgTable(
  "submission_notes",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    submissionId: bigint({ mode: "number" })
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    authorId: bigint({ mode: "number" }).references(() => staffUsers.id, { onDelete: "set null" }),
    body: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("submission_notes_submission_idx").on(table.submissionId, table.createdAt)],
);

/** `delivery-withheld` is the website's own: an email over its daily limit for one address was not sent. */
export type SubmissionEventKind = "status" | "assignee" | "spam" | "note" | "replay" | "delivery-withheld";

/** The change history of a submission: who changed what, from what to what, and when. */
export const submissionEvents = pgTable(
  "submission_events",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    submissionId: bigint({ mode: "number" })
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    actorId: bigint({ mode: "number" }).references(() => staffUsers.id, { onDelete: "set null" }),
    kind: text().$type<SubmissionEventKind>().notNull(),
    fromValue: text(),
    toValue: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("submission_events_submission_idx").on(table.submissionId, table.createdAt)],
);

/** Bytes stored inline: PostgreSQL's bytea, which drizzle-orm has no column builder for. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * A file sent with a submission (a resume), kept beside it: the database is the one place to back up. A file
 * with no submission is staged: stored while the rest of its post was prepared, and adopted by the submission's
 * transaction, or deleted (staged-files.server.ts).
 */
export const submissionFiles = pgTable(
  "submission_files",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    submissionId: bigint({ mode: "number" }).references(() => submissions.id, { onDelete: "cascade" }),
    /** The form field it came in, e.g. resume. */
    fieldName: text().notNull(),
    /**
     * The name it is served and forwarded under: for an upload, made from the reference and the field
     * (APP-T6K1MW-resume.pdf); for a document the app made, the name it gave it. Never used as a path.
     */
    fileName: text().notNull(),
    /** An upload's name on the sender's computer, cleaned, shown to staff as text only. */
    sentAs: text(),
    contentType: text().notNull(),
    sizeBytes: integer().notNull(),
    /** Hex SHA-256 of the content, to tell copies apart and check a download. */
    sha256: text().notNull(),
    content: bytea().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("submission_files_submission_idx").on(table.submissionId),
    index("submission_files_staged_idx").on(table.createdAt).where(sql`${table.submissionId} IS NULL`),
  ],
);

/**
 * A photo going up while its form is filled (tus, server/resumable-uploads.ts), in the database every app instance
 * shares: any instance continues it and any instance's post takes it. Its bytes arrive in
 * resumable_upload_chunks; once complete, the cleaned copy (and thumbnail) replaces them here. Deleted when a post
 * takes it, or within a day when none does.
 */
export const resumableUploads = pgTable(
  "resumable_uploads",
  {
    /** The upload store's name for it: 32 hex digits, as @tus/server makes them. */
    id: text().primaryKey(),
    ownerId: bigint({ mode: "number" })
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    /** Its length as the sender declared it: what it holds on the disk at most, counted against its owner's cap. */
    sizeBytes: integer().notNull(),
    /** The bytes in so far, where the next PATCH continues. */
    receivedBytes: integer().notNull().default(0),
    /** The tus metadata it was created with (form, field, file name, owner). */
    metadata: jsonb().$type<Record<string, string | null>>().notNull(),
    /** What the complete upload became (resumable-uploads.server.ts CleanedUpload); null while under way. */
    cleaned: jsonb().$type<Record<string, unknown>>(),
    cleanedContent: bytea(),
    thumbnail: bytea(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The last time a byte arrived or it was cleaned: the sweep deletes it a day later. */
    writtenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("resumable_uploads_owner_idx").on(table.ownerId),
    index("resumable_uploads_written_idx").on(table.writtenAt),
  ],
);

/** The bytes of an upload under way, each part as one PATCH's stretch of it arrived. */
export const resumableUploadChunks = pgTable(
  "resumable_upload_chunks",
  {
    uploadId: text()
      .notNull()
      .references(() => resumableUploads.id, { onDelete: "cascade" }),
    startByte: integer().notNull(),
    content: bytea().notNull(),
  },
  (table) => [primaryKey({ columns: [table.uploadId, table.startByte] })],
);

/** A webhook post, an email (SMTP), a text message (Twilio) or a push notification to a staff device (Web Push). */
export type DeliveryChannel = "webhook" | "email" | "sms" | "push";
/** How a webhook body is sent: as JSON, or as multipart/form-data built from its fields and the stored files. */
export type DeliveryBodyFormat = "json" | "multipart";
export type DeliveryStatus = "pending" | "sending" | "delivered" | "failed" | "held";

/** One message to one target (a webhook URL or an email recipient), sent by the delivery worker. */
export const deliveries = pgTable(
  "deliveries",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    submissionId: bigint({ mode: "number" })
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    /** Standard Webhooks' webhook-id: the same on every attempt, and on a replay, so receivers can deduplicate. */
    webhookId: text().notNull(),
    /** The submission's reference, sent with every attempt so an automation can link it to the staff inbox. */
    reference: text().notNull().default(""),
    channel: text().$type<DeliveryChannel>().notNull(),
    /** The configuration name of the target, e.g. WEBHOOK_ESTIMATE_URL or STAFF_NOTIFY_EMAIL. */
    target: text().notNull(),
    /** Where it goes: a URL for a webhook, an address for an email, an E.164 number for a text. */
    destination: text().notNull(),
    /**
     * The body: JSON for a webhook, { subject, text, html } for an email, { text } for a text message, or a MultipartBody for a multipart
     * webhook. `json` keeps the keys in their order.
     */
    body: json().$type<unknown>().notNull(),
    bodyFormat: text().$type<DeliveryBodyFormat>().notNull().default("json"),
    status: text().$type<DeliveryStatus>().notNull().default("pending"),
    attemptCount: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** While an attempt is under way; a worker that dies mid-send leaves it to expire, and the send is retried. */
    leaseExpiresAt: timestamp({ withTimezone: true }),
    lastError: text(),
    deliveredAt: timestamp({ withTimezone: true }),
    /**
     * A text: when it was counted in its number's day (TEXTS_PER_NUMBER_PER_DAY), as it went to Twilio; cleared
     * when Twilio answered that it did not take it.
     */
    textCountedAt: timestamp({ withTimezone: true }),
    /** On a replay, the staff user who made it (its createdAt says when): it counts in that person's limits. */
    replayedById: bigint({ mode: "number" }).references(() => staffUsers.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("deliveries_due_idx").on(table.nextAttemptAt).where(sql`${table.status} IN ('pending', 'sending')`),
    index("deliveries_submission_idx").on(table.submissionId),
    // The dashboard's failed-delivery alert and the inbox's "failed" filter look only at these few rows.
    index("deliveries_failed_idx").on(table.submissionId).where(sql`${table.status} = 'failed'`),
    // Counts a day's receipts to one address (dailyLimitPerRecipient) without reading every delivery.
    index("deliveries_recipient_idx").on(table.target, sql`lower(${table.destination})`, table.createdAt),
    // A number's texts of the last day, whatever sent them (TEXTS_PER_NUMBER_PER_DAY).
    index("deliveries_text_number_idx").on(table.destination, table.textCountedAt).where(sql`${table.channel} = 'sms'`),
    // A person's replays of the last hour, counted in their sending limits.
    index("deliveries_replayed_by_idx")
      .on(table.replayedById, table.createdAt)
      .where(sql`${table.replayedById} IS NOT NULL`),
    check("deliveries_status_check", sql`${table.status} IN ('pending', 'sending', 'delivered', 'failed', 'held')`),
    check("deliveries_body_format_check", sql`${table.bodyFormat} IN ('json', 'multipart')`),
  ],
);

/** Every try of a delivery: when, how long, and what came back. */
export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    deliveryId: bigint({ mode: "number" })
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    durationMs: integer().notNull(),
    httpStatus: integer(),
    error: text(),
    succeeded: boolean().notNull(),
    /** Where this attempt went: a webhook's URL is read from the configuration at each attempt. */
    destination: text(),
  },
  (table) => [index("delivery_attempts_delivery_idx").on(table.deliveryId)],
);

export type StaffRole = "admin" | "staff";

/** The people who sign in to the staff tools. Usernames are stored in lower case. */
export const staffUsers = pgTable(
  "staff_users",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    username: text().notNull(),
    /** The person's name as the staff pages show it and the staff forms fill in ("Robin Smith"). */
    displayName: text().notNull(),
    /** argon2id, in the PHC string format that carries its own parameters and salt. */
    passwordHash: text().notNull(),
    role: text().$type<StaffRole>().notNull(),
    isActive: boolean().notNull().default(true),
    /** The base32 TOTP secret once the second factor is confirmed; null without one. */
    totpSecret: text(),
    /** The last time step a code was accepted for, so a code cannot be used twice. */
    totpLastUsedStep: bigint({ mode: "number" }),
    lastSignedInAt: timestamp({ withTimezone: true }),
    passwordChangedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("staff_users_username_unique").on(table.username),
    check("staff_users_role_check", sql`${table.role} IN ('admin', 'staff')`),
  ],
);

/**
 * A staff member's device that takes push notifications (the Web Push subscription its browser made), and which
 * forms' new submissions it is told of. Its `endpoint` is the push service's address for this device.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" })
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    endpoint: text().notNull(),
    /** The browser's P-256 public key and auth secret (base64url), which the payload is encrypted for. */
    p256dh: text().notNull(),
    auth: text().notNull(),
    /** How the device is named in the deliveries ("Dana's Android phone"). */
    deviceName: text().notNull(),
    /** The form types whose new submissions this device hears of. */
    formTypes: text().array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("push_subscriptions_endpoint_unique").on(table.endpoint),
    index("push_subscriptions_user_idx").on(table.userId),
  ],
);

/**
 * A signed-in browser. The cookie carries a random token; only its SHA-256 is stored, so a copy of the
 * database does not let anyone sign in.
 */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    tokenHash: text().primaryKey(),
    userId: bigint({ mode: "number" })
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    /** Password checked, second factor still to come: such a session opens nothing but the code screen. */
    secondFactorPending: boolean().notNull().default(false),
    /** A TOTP secret being enrolled, kept here until the user confirms it with a code. */
    totpEnrolmentSecret: text(),
    /** Codes tried on a half-way session, each counted before it is checked: the third wrong one ends it. */
    codeAttempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    clientIp: text(),
    userAgent: text(),
  },
  (table) => [index("staff_sessions_user_idx").on(table.userId)],
);

/** One-time codes for signing in when the authenticator is lost. Only hashes are kept. */
export const staffRecoveryCodes = pgTable(
  "staff_recovery_codes",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: bigint({ mode: "number" })
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index("staff_recovery_codes_user_idx").on(table.userId)],
);

/** The one-time links that create the first admin account. */
export const setupTokens = pgTable("setup_tokens", {
  tokenHash: text().primaryKey(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  usedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Failed sign-ins per (account, address) pair, per address and per account, shared by every app instance
 * (auth/login-throttle.server.ts). The account and the address are kept beside the key to show admins a lock.
 */
export const loginThrottles = pgTable("login_throttles", {
  key: text().primaryKey(),
  username: text(),
  address: text(),
  failures: integer().notNull().default(0),
  windowStartedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp({ withTimezone: true }),
});

/**
 * Every CSV export of the inbox: who took which submissions away, and how many rows. Kept in the database,
 * beside what was exported, so an admin can answer "who downloaded the applicants" long after logs rotated.
 */
export const inboxExports = pgTable("inbox_exports", {
  id: bigserial({ mode: "number" }).primaryKey(),
  staffUserId: bigint({ mode: "number" }).references(() => staffUsers.id, { onDelete: "set null" }),
  /** Kept as it was, so the record still names someone whose account was removed. */
  username: text().notNull(),
  /** The filters' names as a query string without values (`?type&status&q`), empty for everything. */
  query: text().notNull(),
  /** The types the CSV left out because this user may not read or export them. */
  leftOutTypes: text().array().notNull(),
  /** Set when the last row was written; a download cut short keeps it empty. */
  rowCount: integer(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Settings an admin changes in the app, such as requiring a second factor for everyone. */
export const appSettings = pgTable("app_settings", {
  key: text().primaryKey(),
  value: jsonb().$type<unknown>().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The people Team Communication writes to when ServiceTitan is not configured: kept by admins in the staff area.
 * A deactivated entry is kept (old messages name it) but no longer offered.
 */
export const staffDirectory = pgTable(
  "staff_directory",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    name: text().notNull(),
    email: text(),
    /** As typed; texted only when it reads as a phone number (E.164 is worked out when a message is sent). */
    mobile: text(),
    /**
     * The email in lower case and the mobile as E.164, as the app compares them, written by the app with each
     * save: no two active entries share one. Null on entries not saved since (their duplicates were kept).
     */
    emailLowerCase: text(),
    mobileE164: text("mobile_e164"),
    isActive: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("staff_directory_active_email_unique").on(table.emailLowerCase).where(sql`${table.isActive}`),
    uniqueIndex("staff_directory_active_mobile_unique").on(table.mobileE164).where(sql`${table.isActive}`),
  ],
);

/**
 * Every dashboard alert already texted to ALERT_SMS_TO, by a key naming the alert (failed-delivery:<webhook-id>,
 * one per message however often it is retried or replayed). The key is unique, so however many instances run the
 * alert job, each alert is texted once.
 */
export const alertTexts = pgTable("alert_texts", {
  key: text().primaryKey(),
  deliveryId: bigint({ mode: "number" }).references(() => deliveries.id, { onDelete: "set null" }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * A failed delivery a staff user has seen on the dashboard's alert and acknowledged: it no longer raises the
 * alert. Who and when are kept, the name as it was, so the record still names someone whose account was removed.
 */
export const deliveryFailureAcknowledgements = pgTable("delivery_failure_acknowledgements", {
  deliveryId: bigint({ mode: "number" })
    .primaryKey()
    .references(() => deliveries.id, { onDelete: "cascade" }),
  staffUserId: bigint({ mode: "number" }).references(() => staffUsers.id, { onDelete: "set null" }),
  username: text().notNull(),
  acknowledgedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each backup, scheduled or by hand (`npm run backup` records the good ones): the dashboard and /metrics show the
 * last good one and warn when there has been none for a while, whichever instance took it. `error` is set when a
 * scheduled one failed.
 */
export const backupRuns = pgTable("backup_runs", {
  id: bigserial({ mode: "number" }).primaryKey(),
  startedAt: timestamp({ withTimezone: true }).notNull(),
  finishedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  file: text(),
  bytes: bigint({ mode: "number" }),
  error: text(),
  /** When the copy to BACKUP_COPY_TO was read back whole; null: not copied (yet). */
  copiedAt: timestamp({ withTimezone: true }),
  /** Why the last try to copy it failed; it is tried again at the next run. */
  copyError: text(),
});

/**
 * A staff user's private calendar address (/calendar/<token>.ics): only the token's SHA-256 is kept, so the
 * address is shown once, when it is made. Making a new one replaces the row, and the old address stops at once.
 */
export const staffCalendarFeeds = pgTable("staff_calendar_feeds", {
  userId: bigint({ mode: "number" })
    .primaryKey()
    .references(() => staffUsers.id, { onDelete: "cascade" }),
  tokenHash: text().notNull().unique(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Emails to staff about their own accounts (a second factor locked after wrong codes), kept until sent: made in
 * the request that has something to tell, sent by every instance's staff-notice job (outbox/staff-notices).
 * Stored with SMTP_URL unset as well; one older than a day is no longer sent.
 */
export const staffNotices = pgTable(
  "staff_notices",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    recipient: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    attemptCount: integer().notNull().default(0),
    /** Claimed by an instance until then; after a failed send, the time of the next try. */
    leaseExpiresAt: timestamp({ withTimezone: true }),
    lastError: text(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("staff_notices_unsent_idx").on(table.createdAt).where(sql`${table.sentAt} IS NULL`)],
);

/**
 * Every publish of the public site's words and photos (app/content/site-content.ts), newest last: the one with
 * the highest id is what visitors see. Append-only: publishing an earlier version again adds a row with its
 * content. Who published is kept by name as it was, so the history still names someone whose account was removed.
 */
export const siteContentVersions = pgTable("site_content_versions", {
  id: bigserial({ mode: "number" }).primaryKey(),
  content: jsonb().$type<unknown>().notNull(),
  publishedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  publishedByUserId: bigint({ mode: "number" }).references(() => staffUsers.id, { onDelete: "set null" }),
  publishedByName: text().notNull(),
  /** The earlier version this one published again; null for a publish of a draft. */
  republishedFromId: bigint({ mode: "number" }),
});

/**
 * The one draft of the site's content, shared by the admins: what they changed since the version it is based on
 * (null: nothing was published yet). A save or publish based on an older version than the newest is refused.
 */
export const siteContentDraft = pgTable(
  "site_content_draft",
  {
    id: integer().primaryKey().default(1),
    content: jsonb().$type<unknown>().notNull(),
    baseVersionId: bigint({ mode: "number" }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedByUserId: bigint({ mode: "number" }).references(() => staffUsers.id, { onDelete: "set null" }),
    updatedByName: text().notNull(),
  },
  (table) => [check("site_content_draft_single_row", sql`${table.id} = 1`)],
);

/** A rendition's format: the extension its file is written with. */
export type SitePhotoFormat = "avif" | "webp" | "jpg";

/**
 * A photo an admin uploaded for an image slot of the public pages (app/services/site-photos/), made into the
 * renditions the build makes of its own images, at the slot's fixed size. Its `name` (`site-<hash>`) stands where a
 * build image's file stem does in the site's content; its files are written beside the build's when a version that
 * names it is published.
 */
export const sitePhotos = pgTable("site_photos", {
  id: bigserial({ mode: "number" }).primaryKey(),
  /** `site-` and the start of a SHA-256 of its renditions: the same photo in the same slot size is one row. */
  name: text().notNull().unique(),
  /** The slot's size, which every rendition has the shape of. */
  width: integer().notNull(),
  height: integer().notNull(),
  /** The upright size of the photo as it was sent. */
  sourceWidth: integer().notNull(),
  sourceHeight: integer().notNull(),
  uploadedById: bigint({ mode: "number" }).references(() => staffUsers.id, { onDelete: "set null" }),
  uploadedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** One file of a site photo: `<name>-<width>.<format>`. */
export const sitePhotoRenditions = pgTable(
  "site_photo_renditions",
  {
    photoId: bigint({ mode: "number" })
      .notNull()
      .references(() => sitePhotos.id, { onDelete: "cascade" }),
    width: integer().notNull(),
    height: integer().notNull(),
    format: text().$type<SitePhotoFormat>().notNull(),
    content: bytea().notNull(),
  },
  (table) => [primaryKey({ columns: [table.photoId, table.width, table.format] })],
);
