import { readFile } from "node:fs/promises";
import type { AppLoadContext } from "react-router";
import { FileStaging } from "~/outbox/staged-files.server";
import type { SubmittedFile } from "~/outbox/submission-store.server";
import type { SignedInStaff } from "~/services/auth/require-staff.server";
import type { Database } from "~/services/db/database.server";
import type { FileRule, FormDefinition } from "./definition";
import { displayFileName } from "./file-names";
import { ensureRoomForFiles, MissingUploads } from "./form-failures.server";
import { cleanPostedPhotos, isPhotoRule, type PreparedUploads, withinSubmissionPixels } from "./photos.server";
import { postedFileOnDisk } from "./read-form-body.server";
import { uploadIdsFieldOf } from "./resumable-uploads";
import { deleteUploads, type TakenUploads, takeCleanedUploads } from "./resumable-uploads.server";

type FilesOf = Pick<FormDefinition, "type" | "files" | "maxBodyBytes">;

/**
 * A file a post carries, as the body reader wrote it to disk while it arrived: its size, its SHA-256 taken on the
 * way, and where it is, for the worker that cleans a photo (or the store, for another file) to read it from.
 */
export type CarriedFile = Omit<SubmittedFile, "content" | "sha256"> & {
  sizeBytes: number;
  sha256: string;
  path: string;
};

/** A post's files: those it carries, read and typed by the body reader, and the uploads it names by id. */
export type PostedFiles = { carried: CarriedFile[]; named: Array<{ fieldName: string; id: string }> };

/** The files a post carries and the uploads it names (only a signed-in sender's uploads are theirs to name). */
export function postedFiles(formData: FormData, definition: FilesOf, staff: SignedInStaff | undefined) {
  const carried = definition.files.flatMap((rule) =>
    formData.getAll(rule.field).flatMap((entry) => {
      const onDisk = typeof entry === "string" || entry.size === 0 ? undefined : postedFileOnDisk(entry);
      if (!onDisk || typeof entry === "string") return [];
      return [
        {
          fieldName: rule.field,
          fileName: displayFileName(entry.name),
          contentType: entry.type,
          sizeBytes: entry.size,
          ...onDisk,
          uploaded: true,
        } satisfies CarriedFile,
      ];
    }),
  );
  const named = staff
    ? definition.files.filter(isPhotoRule).flatMap((rule) =>
        formData
          .getAll(uploadIdsFieldOf(rule.field))
          .filter((id): id is string => typeof id === "string" && id !== "")
          .map((id) => ({ fieldName: rule.field, id })),
      )
    : [];
  return { carried, named } satisfies PostedFiles;
}

/** The first field given more files, carried and named together, than its rule takes. */
export function fieldOverCount(files: PostedFiles, rules: readonly FileRule[]): FileRule | undefined {
  const countIn = (field: string) =>
    files.named.filter((up) => up.fieldName === field).length +
    files.carried.filter((file) => file.fieldName === field).length;
  return rules.find((rule) => countIn(rule.field) > rule.maxCount);
}

/**
 * What identifies the files among the answers: each carried file's SHA-256 (taken as it arrived), and each named
 * upload's id (unguessable and never reused: the same ids are the same photos).
 */
export const fileFingerprints = (files: PostedFiles) => [
  files.carried.map((file) => file.sha256),
  files.named.map((up) => up.id),
];

/**
 * The files as they are stored, each staged as soon as it is ready, in their order (a photo while the next ones
 * are cleaned), so the submission's transaction only adopts them: the uploads taken up (cleaned as each one went
 * up), then the carried files, a photo field's cleaned in the work pool within the pixels the uploads left. A
 * photo that cannot be cleaned is left out, with why. `store` gets them; afterwards, whatever it did not adopt is
 * deleted, and the uploads it took are gone once it stored them.
 */
export async function withPreparedFiles<Stored>(
  context: AppLoadContext,
  definition: FilesOf,
  staff: SignedInStaff | undefined,
  files: PostedFiles,
  store: (prepared: PreparedUploads, staging: FileStaging) => Promise<Stored>,
): Promise<Stored> {
  await ensureRoomForFiles(
    context,
    files.carried.reduce((sum, file) => sum + file.sizeBytes, 0),
  );
  const staging = new FileStaging(context.db);
  try {
    const takenUp = await takeUploadsUp(context.db, definition, staff, files);
    if (takenUp.missing.length > 0) throw new MissingUploads(takenUp.missing);
    for (const file of takenUp.files) staging.stage(file);
    const carried = await prepareCarried(context, definition, files.carried, takenUp, staging);
    const prepared = withinSubmissionPixels(context.config, {
      files: [...takenUp.files, ...carried.files],
      problems: [...takenUp.problems, ...carried.problems],
    });
    const stored = await store(prepared, staging);
    await deleteUploads(context.db, takenUp.ids).catch((error: unknown) =>
      context.logger.warn({ err: error }, "stored uploads could not be deleted"),
    );
    return stored;
  } finally {
    await staging
      .discardUnadopted()
      .catch((error: unknown) => context.logger.warn({ err: error }, "staged files could not be deleted"));
  }
}

/** The uploads a post names, cleaned as each went up; the whole post, uploads and carried files, within its cap. */
async function takeUploadsUp(
  db: Database,
  definition: FilesOf,
  staff: SignedInStaff | undefined,
  files: PostedFiles,
): Promise<TakenUploads> {
  const taken: TakenUploads = { files: [], problems: [], ids: [], missing: [] };
  if (!staff) return taken;
  let budgetBytes = definition.maxBodyBytes - files.carried.reduce((sum, file) => sum + file.sizeBytes, 0);
  for (const rule of definition.files) {
    const ids = files.named.filter((up) => up.fieldName === rule.field).map((up) => up.id);
    const claim = { ownerId: staff.id, formType: definition.type, fieldName: rule.field };
    const field = await takeCleanedUploads(db, ids, claim, budgetBytes);
    budgetBytes -= field.files.reduce((sum, file) => sum + file.content.byteLength, 0);
    taken.files.push(...field.files);
    taken.problems.push(...field.problems);
    taken.ids.push(...field.ids);
    taken.missing.push(...field.missing);
  }
  return taken;
}

/**
 * The carried files: a photo field's cleaned in the work pool within the pixels the uploads left (the worker reads
 * each from disk), others as sent.
 */
async function prepareCarried(
  context: AppLoadContext,
  definition: FilesOf,
  carried: CarriedFile[],
  takenUp: TakenUploads,
  staging: FileStaging,
): Promise<PreparedUploads> {
  const photoRules = definition.files.filter(isPhotoRule);
  const photoFields = new Set(photoRules.map((rule) => rule.field));
  const prepared: PreparedUploads = {
    files: await Promise.all(carried.filter((file) => !photoFields.has(file.fieldName)).map(asSent)),
    problems: [],
  };
  for (const file of prepared.files) staging.stage(file);
  let pixelsUsed = takenUp.files.reduce((sum, file) => sum + (file.photo?.pixels ?? 0), 0);
  for (const rule of photoRules) {
    const photos = carried.filter((file) => file.fieldName === rule.field);
    const cleaned = await cleanPostedPhotos(context.config, rule, photos, pixelsUsed, (file) => staging.stage(file));
    pixelsUsed += cleaned.files.reduce((sum, file) => sum + (file.photo?.pixels ?? 0), 0);
    prepared.files.push(...cleaned.files);
    prepared.problems.push(...cleaned.problems);
  }
  return prepared;
}

/** A carried file as it is stored: its bytes read from where the body reader wrote them, off this thread. */
async function asSent({ path, sizeBytes, ...file }: CarriedFile): Promise<SubmittedFile> {
  return { ...file, content: new Uint8Array(await readFile(path)) };
}
