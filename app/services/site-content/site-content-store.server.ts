import { desc, eq, sql } from "drizzle-orm";
import { defaultSiteContent, type SiteContent, withDefaults } from "~/content/site-content";
import { type Database, inTransaction, type Transaction } from "../db/database.server";
import { siteContentDraft, siteContentVersions, staffUsers } from "../db/schema.server";

/*
 * The public site's content: versions (append-only, the newest is published) and one draft the admins share.
 * A save or publish names the version it was based on; when another admin published since, it is refused with
 * who and when, never applied over their words. Every publish is announced on SITE_CONTENT_CHANNEL, so that
 * each instance of a cluster serves the new version.
 */

/** The PostgreSQL NOTIFY channel a publish is announced on; its payload is the new version's id. */
export const SITE_CONTENT_CHANNEL = "site_content_published";

export type PublishedSiteContent = { versionId: number | null; content: SiteContent };

export type SiteDraft = {
  content: SiteContent;
  /** The version the draft started from; null when nothing was published yet. */
  baseVersionId: number | null;
  /** Null when there is no draft (content is then the published one). */
  updatedAt: Date | null;
  /** The display name of the admin who saved the draft last; null when there is no draft. */
  updatedBy: string | null;
};

export type SiteContentConflict = {
  status: "conflict";
  publishedVersionId: number;
  publishedBy: string;
  publishedAt: Date;
};

export type SiteVersionSummary = {
  versionId: number;
  publishedAt: Date;
  publishedBy: string;
  /** The earlier version this one published again, if it did. */
  republishedFromId: number | null;
  current: boolean;
};

type Executor = Database | Transaction;

async function newestVersion(executor: Executor) {
  const [row] = await executor
    .select({
      id: siteContentVersions.id,
      content: siteContentVersions.content,
      publishedAt: siteContentVersions.publishedAt,
      publishedByName: siteContentVersions.publishedByName,
    })
    .from(siteContentVersions)
    .orderBy(desc(siteContentVersions.id))
    .limit(1);
  return row;
}

/** What visitors see: the newest version, or today's defaults when nothing was ever published. */
export async function publishedSiteContent(db: Database): Promise<PublishedSiteContent> {
  const row = await newestVersion(db);
  return row
    ? { versionId: row.id, content: withDefaults(row.content) }
    : { versionId: null, content: defaultSiteContent };
}

/** One version's content, to look at before publishing it again; null when there is no such version. */
export async function loadSiteVersion(db: Database, versionId: number): Promise<SiteContent | null> {
  const [row] = await db
    .select({ content: siteContentVersions.content })
    .from(siteContentVersions)
    .where(eq(siteContentVersions.id, versionId));
  return row ? withDefaults(row.content) : null;
}

/** The draft, or the published content to start one from. */
export async function loadSiteDraft(db: Database): Promise<SiteDraft> {
  const [draft] = await db.select().from(siteContentDraft).where(eq(siteContentDraft.id, 1));
  if (draft) {
    return {
      content: withDefaults(draft.content),
      baseVersionId: draft.baseVersionId,
      updatedAt: draft.updatedAt,
      updatedBy: draft.updatedByName,
    };
  }
  const published = await publishedSiteContent(db);
  return { content: published.content, baseVersionId: published.versionId, updatedAt: null, updatedBy: null };
}

async function displayNameOf(executor: Executor, userId: number): Promise<string> {
  const [user] = await executor
    .select({ displayName: staffUsers.displayName })
    .from(staffUsers)
    .where(eq(staffUsers.id, userId));
  if (!user) throw new Error(`No staff user ${userId}`);
  return user.displayName;
}

/** Holds other saves and publishes of the site's content back until the transaction ends. */
async function lockSiteContent(tx: Transaction): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('site content'))`);
}

type NewestVersion = NonNullable<Awaited<ReturnType<typeof newestVersion>>>;

const conflictWith = (newest: NewestVersion): SiteContentConflict => ({
  status: "conflict",
  publishedVersionId: newest.id,
  publishedBy: newest.publishedByName,
  publishedAt: newest.publishedAt,
});

/**
 * Runs `work` with the site's content locked against other saves and publishes, and with the newest version; a
 * conflict when `baseVersionId` is not that version.
 */
async function onNewestVersion<T>(
  db: Database,
  baseVersionId: number | null,
  work: (tx: Transaction, newest: NewestVersion | undefined) => Promise<T>,
): Promise<T | SiteContentConflict> {
  return inTransaction(db, async (tx) => {
    await lockSiteContent(tx);
    const newest = await newestVersion(tx);
    if (newest && newest.id !== baseVersionId) return conflictWith(newest);
    return work(tx, newest);
  });
}

/**
 * Saves the draft (checked by the caller with siteContentSchema). `baseVersionId` is the version the admin's
 * edit started from: when another version was published since, nothing is saved and the answer says who
 * published it and when.
 */
export async function saveSiteDraft(
  db: Database,
  { content, baseVersionId, userId }: { content: SiteContent; baseVersionId: number | null; userId: number },
): Promise<{ status: "saved" } | SiteContentConflict> {
  return onNewestVersion(db, baseVersionId, async (tx) => {
    const draft = {
      content,
      baseVersionId,
      updatedAt: new Date(),
      updatedByUserId: userId,
      updatedByName: await displayNameOf(tx, userId),
    };
    await tx
      .insert(siteContentDraft)
      .values({ id: 1, ...draft })
      .onConflictDoUpdate({ target: siteContentDraft.id, set: draft });
    return { status: "saved" } as const;
  });
}

/** Drops the draft: the editor starts again from the published content. */
export async function discardSiteDraft(db: Database): Promise<void> {
  await db.delete(siteContentDraft).where(eq(siteContentDraft.id, 1));
}

async function addVersion(
  tx: Transaction,
  { content, userId, republishedFromId }: { content: unknown; userId: number; republishedFromId: number | null },
): Promise<{ status: "published"; versionId: number }> {
  const [version] = await tx
    .insert(siteContentVersions)
    .values({ content, publishedByUserId: userId, publishedByName: await displayNameOf(tx, userId), republishedFromId })
    .returning({ id: siteContentVersions.id });
  if (!version) throw new Error("The new site content version was not stored");
  // Sent when the transaction commits, to every instance listening (site-content-cache.server.ts).
  await tx.execute(sql`SELECT pg_notify(${SITE_CONTENT_CHANNEL}, ${String(version.id)})`);
  return { status: "published", versionId: version.id };
}

/**
 * Publishes the draft (the published content again when there is none) as a new version and drops the draft.
 * Refused as a conflict when the draft, or the editor's `baseVersionId`, is based on an older version than the
 * newest.
 */
export async function publishSiteDraft(
  db: Database,
  { userId, baseVersionId }: { userId: number; baseVersionId: number | null },
): Promise<{ status: "published"; versionId: number } | SiteContentConflict> {
  return onNewestVersion(db, baseVersionId, async (tx, newest) => {
    const [draft] = await tx.select().from(siteContentDraft).where(eq(siteContentDraft.id, 1));
    if (draft && newest && draft.baseVersionId !== newest.id) return conflictWith(newest);
    const content = draft ? withDefaults(draft.content) : (newest?.content ?? defaultSiteContent);
    const published = await addVersion(tx, { content, userId, republishedFromId: null });
    await tx.delete(siteContentDraft).where(eq(siteContentDraft.id, 1));
    return published;
  });
}

/** Every version, newest first, with who published it and when. */
export async function listSiteVersions(db: Database): Promise<SiteVersionSummary[]> {
  const rows = await db
    .select({
      versionId: siteContentVersions.id,
      publishedAt: siteContentVersions.publishedAt,
      publishedBy: siteContentVersions.publishedByName,
      republishedFromId: siteContentVersions.republishedFromId,
    })
    .from(siteContentVersions)
    .orderBy(desc(siteContentVersions.id));
  return rows.map((row, index) => ({ ...row, current: index === 0 }));
}

/**
 * Publishes an earlier version again, as a new version with its content (the history is kept as it was). A draft
 * stays, and is now based on an older version: saving or publishing it says so.
 */
export async function republishSiteVersion(
  db: Database,
  { versionId, userId }: { versionId: number; userId: number },
): Promise<{ status: "published"; versionId: number } | { status: "not-found" }> {
  return inTransaction(db, async (tx) => {
    await lockSiteContent(tx);
    const [earlier] = await tx
      .select({ content: siteContentVersions.content })
      .from(siteContentVersions)
      .where(eq(siteContentVersions.id, versionId));
    if (!earlier) return { status: "not-found" } as const;
    return addVersion(tx, { content: earlier.content, userId, republishedFromId: versionId });
  });
}
