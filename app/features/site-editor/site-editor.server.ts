import { randomBytes } from "node:crypto";
import { inArray } from "drizzle-orm";
import { type AppLoadContext, data } from "react-router";
import * as z from "zod/mini";
import { defaultSiteContent, type SiteContent, siteContentSchema } from "~/content/site-content";
import { type BodyFileRule, discardPostedFiles, postedFileOnDisk, readFormBody } from "~/forms/read-form-body.server";
import { signedInStaff } from "~/services/auth/require-staff.server";
import { sitePhotos } from "~/services/db/schema.server";
import { formatStaffTime } from "~/services/format-staff-time.server";
import type { PhotoFile } from "~/services/photos/clean-photo.server";
import {
  listSiteVersions,
  loadSiteDraft,
  loadSiteVersion,
  publishSiteDraft,
  republishSiteVersion,
  type SiteContentConflict,
  saveSiteDraft,
} from "~/services/site-content/site-content-store.server";
import { isSitePhotoName, sitePhotoRendition, storeSitePhoto } from "~/services/site-photos/site-photo-store.server";
import { WorkPoolFull } from "~/services/work-pool/work-pool.server";
import {
  type ContentPath,
  fieldNameOf,
  type ImageSlot,
  isImageSlot,
  LIST_INTENTS,
  type ListIntent,
  type SiteSection,
  sectionValues,
  siteSectionById,
  valueAt,
  withValueAt,
} from "./site-sections";

/** A photo as a phone's camera takes it, at most: the checklist's cap. */
const PHOTO_MAX_BYTES = 25 * 1024 * 1024;
/** Two photos in one save, and the section's words around them. */
const SECTION_MAX_BYTES = 2 * PHOTO_MAX_BYTES + 256 * 1024;
/** The most items any list of the content may have (the schema holds each list's own count). */
const MOST_LIST_ITEMS = 12;

/** What the editor's forms answer: the outcome, and on a refusal the section's values as typed, with each error. */
export type SiteEditorAnswer = {
  status: "success" | "error";
  message: string;
  /** The section's parts as typed, kept on a refusal or after a list change not yet saved. */
  values?: unknown[];
  /** Errors by field name (`home.testimonials.0.quote`). */
  errors?: Record<string, string>;
  conflict?: { publishedVersionId: number; publishedBy: string; publishedAt: string };
};

const answer = (status: number, body: SiteEditorAnswer) => data(body, { status });

/** The shape of the value at `path`: the default content's, with every list position read as its first item. */
const templateAt = (path: ContentPath) =>
  valueAt(
    defaultSiteContent,
    path.map((key) => (typeof key === "number" ? 0 : key)),
  );

const textOf = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
};

/** How many items of the list at `path` the form sent: its positions run from 0 with no gap. */
function itemCount(formData: FormData, path: ContentPath): number {
  const prefix = fieldNameOf(path);
  const names = [...formData.keys()];
  let count = 0;
  while (names.some((name) => name === `${prefix}.${count}` || name.startsWith(`${prefix}.${count}.`))) count++;
  return count;
}

/** The value at `path` as the form sent it, in the default content's shape; a number not typed as one stays words. */
function readValue(formData: FormData, path: ContentPath): unknown {
  const template = templateAt(path);
  const name = fieldNameOf(path);
  if (typeof template === "string") return textOf(formData, name);
  if (typeof template === "number") {
    const typed = textOf(formData, name).trim();
    return /^\d{1,9}$/.test(typed) ? Number(typed) : typed;
  }
  if (Array.isArray(template)) {
    // A choice of several (the days of an opening time): checkboxes under one name.
    if (path.at(-1) === "days") return formData.getAll(name).filter((day) => typeof day === "string");
    return Array.from({ length: itemCount(formData, path) }, (_, index) => readValue(formData, [...path, index]));
  }
  if (isImageSlot(template)) {
    return {
      name: textOf(formData, `${name}.name`),
      alt: textOf(formData, `${name}.alt`),
      width: template.width,
      height: template.height,
    };
  }
  if (template && typeof template === "object") {
    return Object.fromEntries(Object.keys(template).map((key) => [key, readValue(formData, [...path, key])]));
  }
  return undefined;
}

/** Every image slot under `path` in the default content's shape, each list as long as a list may be. */
function imageSlotPaths(path: ContentPath): ContentPath[] {
  const template = templateAt(path);
  if (isImageSlot(template)) return [path];
  if (Array.isArray(template)) {
    return Array.from({ length: MOST_LIST_ITEMS }, (_, index) => imageSlotPaths([...path, index])).flat();
  }
  if (template && typeof template === "object")
    return Object.keys(template).flatMap((key) => imageSlotPaths([...path, key]));
  return [];
}

const uploadFieldOf = (path: ContentPath) => `${fieldNameOf(path)}.upload`;

/** The build's images by name, with their sizes: a slot may name one of them or an uploaded photo. */
function buildImages(): Map<string, ImageSlot> {
  const images = new Map<string, ImageSlot>();
  const visit = (value: unknown) => {
    if (isImageSlot(value)) images.set(value.name, value);
    else if (value && typeof value === "object") for (const inner of Object.values(value)) visit(inner);
  };
  visit(defaultSiteContent);
  return images;
}

/** A fresh id for an item added to a list (a logo, a pair, a pillar). */
const newItemId = () => `new-${randomBytes(4).toString("hex")}`;

/** A new item of a list: the default's first item with its words empty, its photo kept until another is chosen. */
function blankItem(template: unknown): unknown {
  if (typeof template === "string") return "";
  if (isImageSlot(template)) return { ...template, alt: "" };
  if (Array.isArray(template)) return [];
  if (template && typeof template === "object") {
    return Object.fromEntries(
      Object.entries(template).map(([key, value]) => [key, key === "id" ? newItemId() : blankItem(value)]),
    );
  }
  return template;
}

/** A list change the form asked for (`add:home.testimonials`, `up:home.testimonials.1`), read from its intent. */
function listChangeOf(intent: string): { kind: ListIntent; path: ContentPath } | undefined {
  const [kind, field] = intent.split(":");
  if (!field || !LIST_INTENTS.includes(kind as ListIntent)) return undefined;
  const path = field.split(".").map((key) => (/^\d+$/.test(key) ? Number(key) : key));
  return { kind: kind as ListIntent, path };
}

function changedList(content: SiteContent, change: { kind: ListIntent; path: ContentPath }): SiteContent {
  const listPath = change.kind === "add" ? change.path : change.path.slice(0, -1);
  const list = valueAt(content, listPath);
  if (!Array.isArray(list)) return content;
  const items = [...list];
  const index = Number(change.path.at(-1));
  if (change.kind === "add") items.push(blankItem(templateAt([...listPath, 0])));
  else if (change.kind === "remove") items.splice(index, 1);
  else {
    const other = change.kind === "up" ? index - 1 : index + 1;
    if (other < 0 || other >= items.length) return content;
    [items[index], items[other]] = [items[other], items[index]];
  }
  return withValueAt(content, listPath, items);
}

/** The schema's problems with the content, by field name. */
function problemsOf(content: unknown): Record<string, string> {
  const parsed = z.safeParse(siteContentSchema, content);
  const problems: Record<string, string> = {};
  if (parsed.success) return problems;
  for (const issue of parsed.error.issues) problems[fieldNameOf(issue.path as ContentPath)] ??= issue.message;
  return problems;
}

/** The problems that belong to a section's fields; the others are not its screen's to show. */
const sectionProblems = (section: SiteSection, problems: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(problems).filter(([name]) =>
      section.parts.some((part) => name === fieldNameOf(part) || name.startsWith(`${fieldNameOf(part)}.`)),
    ),
  );

const baseVersionOf = (formData: FormData) => {
  const typed = textOf(formData, "baseVersionId");
  return /^\d{1,15}$/.test(typed) ? Number(typed) : null;
};

const conflictAnswer = (conflict: SiteContentConflict) => ({
  publishedVersionId: conflict.publishedVersionId,
  publishedBy: conflict.publishedBy,
  publishedAt: formatStaffTime(conflict.publishedAt),
});

const conflictMessage = (conflict: SiteContentConflict) =>
  `${conflict.publishedBy} published the site at ${formatStaffTime(conflict.publishedAt)}, after you started these changes. Nothing was overwritten: look at the published site, then save your changes over it or start again from it.`;

/** The editor's start: its screens, the draft's state, and Publish. */
export async function loadSiteEditor(context: AppLoadContext) {
  signedInStaff(context, { role: "admin" });
  const draft = await loadSiteDraft(context.db);
  return {
    baseVersionId: draft.baseVersionId,
    draftSavedAt: draft.updatedAt ? formatStaffTime(draft.updatedAt) : null,
    draftSavedBy: draft.updatedBy,
  };
}

/** Publish, and Discard the draft. */
export async function siteEditorAction(request: Request, context: AppLoadContext) {
  const user = signedInStaff(context, { role: "admin" });
  const read = await readFormBody(request, { maxBytes: 4 * 1024 });
  if (!read.ok) return answer(read.status, { status: "error", message: "We could not read that form." });
  if (textOf(read.formData, "intent") !== "publish")
    return answer(400, { status: "error", message: "Unknown action." });
  const published = await publishSiteDraft(context.db, {
    userId: user.id,
    baseVersionId: baseVersionOf(read.formData),
  });
  if (published.status === "conflict") {
    return answer(409, { status: "error", message: conflictMessage(published), conflict: conflictAnswer(published) });
  }
  return answer(200, { status: "success", message: "Published. Visitors see it within seconds." });
}

function sectionOf(id: string | undefined): SiteSection {
  const section = siteSectionById(id ?? "");
  if (!section) throw data({ message: "There is no such part of the site." }, { status: 404 });
  return section;
}

/** One screen of the editor: its section's values from the draft (or the published content). */
export async function loadSiteSection(context: AppLoadContext, sectionId: string | undefined) {
  signedInStaff(context, { role: "admin" });
  const section = sectionOf(sectionId);
  const draft = await loadSiteDraft(context.db);
  return {
    section,
    values: sectionValues(section, draft.content),
    baseVersionId: draft.baseVersionId,
    draftSavedAt: draft.updatedAt ? formatStaffTime(draft.updatedAt) : null,
  };
}

/** The size of a named image: a build image's own, or an uploaded photo's; undefined for a name that is neither. */
async function imageSizes(context: AppLoadContext, names: string[]): Promise<Map<string, ImageSlot>> {
  const sizes = buildImages();
  const uploaded = names.filter(isSitePhotoName);
  if (uploaded.length > 0) {
    const rows = await context.db
      .select({ name: sitePhotos.name, width: sitePhotos.width, height: sitePhotos.height })
      .from(sitePhotos)
      .where(inArray(sitePhotos.name, uploaded));
    for (const row of rows) sizes.set(row.name, { ...row, alt: "" });
  }
  return sizes;
}

/** A posted photo as the work pool reads it: from the temporary file the body reader wrote it to. */
async function postedPhoto(upload: File): Promise<PhotoFile> {
  const onDisk = postedFileOnDisk(upload);
  const named = { fileName: upload.name, contentType: upload.type };
  return onDisk ? { ...named, path: onDisk.path } : { ...named, content: new Uint8Array(await upload.arrayBuffer()) };
}

/**
 * The section's image slots after the post: a slot with a photo sent gets the stored photo (or its problem); a
 * slot without names an image that exists, at its own size, else keeps the draft's.
 */
async function withSlotPhotos(
  context: AppLoadContext,
  userId: number,
  formData: FormData,
  sent: { content: SiteContent; draft: SiteContent; slots: readonly ContentPath[] },
  problems: Record<string, string>,
): Promise<SiteContent> {
  let { content } = sent;
  const { draft, slots } = sent;
  const named = slots.map((path) => valueAt(content, path)).filter(isImageSlot);
  const sizes = await imageSizes(
    context,
    named.map((slot) => slot.name),
  );
  for (const path of slots) {
    const slot = valueAt(content, path);
    if (!isImageSlot(slot)) continue;
    const upload = formData.get(uploadFieldOf(path));
    if (upload instanceof File) {
      const template = templateAt(path) as ImageSlot;
      const size = { width: template.width, height: template.height };
      const stored = await storeSitePhoto(context.db, context.config, await postedPhoto(upload), size, userId).catch(
        (error: unknown) => {
          if (error instanceof WorkPoolFull)
            return { ok: false as const, reason: "the server is busy; try again soon" };
          throw error;
        },
      );
      if (stored.ok) content = withValueAt(content, path, { ...slot, name: stored.name, ...size });
      else problems[uploadFieldOf(path)] = `This photo could not be used: ${stored.reason}.`;
      continue;
    }
    // A name the form sent stands only for an image that exists, at its own size.
    const known = sizes.get(slot.name);
    const current = valueAt(draft, path);
    const fallback = isImageSlot(current) ? current : (templateAt(path) as ImageSlot);
    content = withValueAt(
      content,
      path,
      known
        ? { ...slot, width: known.width, height: known.height }
        : { ...slot, name: fallback.name, width: fallback.width, height: fallback.height },
    );
  }
  return content;
}

/**
 * Save draft (with any photos chosen), or a list change (add, remove, move) shown at once and saved with the
 * next Save draft. A refused save gives back everything typed, each error beside its field; an uploaded photo is
 * kept in its slot either way.
 */
export async function siteSectionAction(request: Request, context: AppLoadContext, sectionId: string | undefined) {
  const user = signedInStaff(context, { role: "admin" });
  const section = sectionOf(sectionId);
  const slots = section.parts.flatMap(imageSlotPaths);
  const files: BodyFileRule[] = slots.map((path) => ({
    field: uploadFieldOf(path),
    maxBytes: PHOTO_MAX_BYTES,
    maxCount: 1,
    type: "photo",
  }));
  const read = await readFormBody(request, { maxBytes: SECTION_MAX_BYTES, files, maxParts: 2000 });
  if (!read.formData) {
    return answer(read.ok ? 400 : read.status, {
      status: "error",
      message: "We could not read that form. Photos may be at most 25 MB each, two at a time.",
    });
  }
  const { formData } = read;
  const draft = await loadSiteDraft(context.db);
  let content = section.parts.reduce<SiteContent>(
    (whole, part) => withValueAt(whole, part, readValue(formData, part)),
    draft.content,
  );
  const problems: Record<string, string> = {};
  if (!read.ok && "field" in read.problem) {
    problems[read.problem.field] =
      read.problem.kind === "wrong-type"
        ? "Choose a photo (JPEG, PNG, WebP or HEIC)."
        : "This photo is too large: at most 25 MB.";
  }

  try {
    content = await withSlotPhotos(context, user.id, formData, { content, draft: draft.content, slots }, problems);
  } finally {
    await discardPostedFiles(formData);
  }

  const intent = textOf(formData, "intent");
  const values = sectionValues(section, content);
  const change = listChangeOf(intent);
  if (change) {
    const changed = changedList(content, change);
    return answer(200, {
      status: "success",
      message: "Changed here. Save draft to keep it.",
      values: sectionValues(section, changed),
      errors: problems,
    });
  }
  Object.assign(problems, sectionProblems(section, problemsOf(content)));
  if (Object.keys(problems).length > 0) {
    return answer(400, {
      status: "error",
      message: "Please correct the fields marked below. Nothing was saved yet; what you typed is still here.",
      values,
      errors: problems,
    });
  }
  const saved = await saveSiteDraft(context.db, {
    content,
    baseVersionId: intent.startsWith("save-over:")
      ? Number(intent.slice("save-over:".length))
      : baseVersionOf(formData),
    userId: user.id,
  });
  if (saved.status === "conflict") {
    return answer(409, {
      status: "error",
      message: conflictMessage(saved),
      values,
      conflict: conflictAnswer(saved),
    });
  }
  return answer(200, {
    status: "success",
    message: "Draft saved. Visitors see the published site until you publish.",
    values,
  });
}

/** Every version with who published it and when. */
export async function loadSiteHistory(context: AppLoadContext) {
  signedInStaff(context, { role: "admin" });
  const versions = await listSiteVersions(context.db);
  return {
    versions: versions.map((version) => ({
      versionId: version.versionId,
      publishedAt: formatStaffTime(version.publishedAt),
      publishedBy: version.publishedBy,
      republishedFromId: version.republishedFromId,
      current: version.current,
    })),
  };
}

/** "Publish this version again", in one step. */
export async function siteHistoryAction(request: Request, context: AppLoadContext) {
  const user = signedInStaff(context, { role: "admin" });
  const read = await readFormBody(request, { maxBytes: 4 * 1024 });
  if (!read.ok) return answer(read.status, { status: "error", message: "We could not read that form." });
  const versionId = Number(textOf(read.formData, "versionId"));
  if (textOf(read.formData, "intent") !== "republish" || !Number.isSafeInteger(versionId)) {
    return answer(400, { status: "error", message: "Unknown action." });
  }
  const published = await republishSiteVersion(context.db, { versionId, userId: user.id });
  if (published.status === "not-found") return answer(404, { status: "error", message: "There is no such version." });
  return answer(200, {
    status: "success",
    message: `Version ${versionId} is published again, as version ${published.versionId}. Visitors see it within seconds.`,
  });
}

/** One version's words, to look at before publishing it again. */
export async function loadSiteVersionView(context: AppLoadContext, versionId: string | undefined) {
  signedInStaff(context, { role: "admin" });
  const content = /^\d{1,15}$/.test(versionId ?? "") ? await loadSiteVersion(context.db, Number(versionId)) : null;
  if (!content) throw data({ message: "There is no such version." }, { status: 404 });
  return { versionId: Number(versionId), content };
}

/** An uploaded photo's rendition, for the editor and its preview before the photo is published. */
export async function sitePhotoFile(context: AppLoadContext, fileName: string | undefined) {
  signedInStaff(context, { role: "admin" });
  const rendition = await sitePhotoRendition(context.db, fileName ?? "");
  if (!rendition) throw data({ message: "There is no such photo." }, { status: 404 });
  const type = { avif: "image/avif", webp: "image/webp", jpg: "image/jpeg" }[rendition.format];
  return new Response(new Uint8Array(rendition.content), {
    headers: { "content-type": type, "cache-control": "private, no-store" },
  });
}
