import { Server, type Upload } from "@tus/server";
import type { RequestHandler } from "express";
import type { AnyFormDefinition } from "../app/forms/definition";
import { displayFileName } from "../app/forms/file-names";
import { sniffFile } from "../app/forms/file-sniffing.server";
import { cleanPhotoInPool, isPhotoRule, type PhotoRule } from "../app/forms/photos.server";
import { RESUMABLE_UPLOADS_PATH, type ResumableUploadMetadata, UPLOAD_REFUSALS } from "../app/forms/resumable-uploads";
import { keepCleanedUpload, receivedBytes } from "../app/forms/resumable-uploads.server";
import { findSignedInStaff } from "../app/services/auth/require-staff.server";
import type { Config } from "../app/services/config.server";
import type { Database } from "../app/services/db/database.server";
import { filesWouldCrossFloor } from "../app/services/free-space.server";
import { WorkPoolFull } from "../app/services/work-pool/work-pool.server";
import { PostgresUploadStore, UnfinishedUploadsOverCap } from "./postgres-upload-store";

/** A refusal as @tus/server sends it: the status and a line of text. */
const refusal = (status_code: number, body: string) => ({ status_code, body: `${body}\n` });

/** How much of a file its type is sniffed from (sniffFile). */
const SNIFFED_BYTES = 4096;

/** What @tus/server hands the hooks: a web request over Node's, where the sign-in check left its user. */
type HookRequest = { runtime?: { node?: { req: object } } };

type PhotoField = { definition: AnyFormDefinition; rule: PhotoRule };

type ResumableUploadsOptions = { config: Config; db: Database; forms: readonly AnyFormDefinition[] };

/**
 * The tus endpoint where the forms' photo fields go up while the form is filled (@tus/server over the database
 * every instance shares, postgres-upload-store.ts). Only a signed-in staff user may create, resume or delete an
 * upload, and only their own; each upload names its form and field, whose per-file cap and type sniffing apply.
 * A new upload is refused past its sender's UPLOAD_UNFINISHED_MAX_BYTES_PER_PERSON (413), or when it would leave
 * DATA_DIR's disk under UPLOAD_FREE_SPACE_FLOOR (507): its photo then goes with the form. When an upload
 * completes it is cleaned (in the work pool: upright, metadata gone, with its thumbnail) before its last byte is
 * acknowledged, and only the cleaned copy is ever taken by a post: the raw bytes are never served (GET is
 * refused).
 */
export function resumableUploads({ config, db, forms }: ResumableUploadsOptions): RequestHandler {
  const owners = new WeakMap<object, number>();
  const tus = tusServer(config, db, forms, owners);
  return async (req, res, next) => {
    // The raw bytes still carry their metadata (a photo's GPS position): nothing serves them.
    if (req.method === "GET") {
      res.status(405).set("Allow", "HEAD, POST, PATCH, DELETE").type("text/plain").send("Uploads are not served.");
      return;
    }
    try {
      const signedIn = await findSignedInStaff(
        db,
        config,
        new Request(new URL(req.originalUrl, config.SITE_URL), { headers: { cookie: req.get("cookie") ?? "" } }),
      );
      if (typeof signedIn === "string") {
        res.status(401).type("text/plain").send("Sign in to upload photos.");
        return;
      }
      owners.set(req, signedIn.id);
      await tus.handle(req, res);
    } catch (error) {
      next(error);
    }
  };
}

/** The upload store, where an upload is its sender's (anyone else is told it does not exist) and names its field. */
function tusServer(
  config: Config,
  db: Database,
  forms: readonly AnyFormDefinition[],
  owners: WeakMap<object, number>,
): Server {
  const ownerOf = (request: HookRequest) => {
    const node = request.runtime?.node?.req;
    return node ? owners.get(node) : undefined;
  };
  const photoFields = forms.flatMap((definition) =>
    (definition.files ?? []).filter(isPhotoRule).map((rule) => ({ definition, rule })),
  );
  const fieldOf = (metadata: Upload["metadata"]) =>
    photoFields.find(
      ({ definition, rule }) => definition.type === metadata?.formType && rule.field === metadata?.fieldName,
    );
  const datastore = new PostgresUploadStore({
    db,
    maxUnfinishedBytesPerOwner: config.UPLOAD_UNFINISHED_MAX_BYTES_PER_PERSON,
  });
  return new Server({
    path: RESUMABLE_UPLOADS_PATH,
    datastore,
    relativeLocation: true,
    maxSize: Math.max(...photoFields.map(({ rule }) => rule.maxBytes)),
    onIncomingRequest: async (request, id) => {
      if (request.method === "POST") return;
      const upload = await datastore.getUpload(id);
      if (upload.metadata?.ownerId !== String(ownerOf(request))) throw refusal(404, "The upload was not found.");
    },
    onUploadCreate: async (request, upload) => {
      const field = fieldOf(upload.metadata);
      if (!field) throw refusal(400, "The upload does not name a form's photo field.");
      if (upload.size === undefined) throw refusal(400, "The upload must give its length.");
      if (upload.size > field.rule.maxBytes) throw refusal(413, field.rule.messages.tooLarge);
      if (await filesWouldCrossFloor(config, upload.size)) {
        throw refusal(507, UPLOAD_REFUSALS.diskLow);
      }
      return { metadata: { ...upload.metadata, ownerId: String(ownerOf(request)) } };
    },
    onUploadFinish: (_request, upload) => cleanCompletedUpload(config, db, datastore, fieldOf(upload.metadata), upload),
    onResponseError: (_request, error) =>
      error instanceof UnfinishedUploadsOverCap
        ? refusal(413, UPLOAD_REFUSALS.overPersonCap(config.UPLOAD_UNFINISHED_MAX_BYTES_PER_PERSON))
        : undefined,
  });
}

/** An upload of its field's type is cleaned; a post takes the cleaned copy, or why there is none. */
async function cleanCompletedUpload(
  config: Config,
  db: Database,
  datastore: PostgresUploadStore,
  field: PhotoField | undefined,
  upload: Upload,
) {
  if (!field) throw refusal(400, "The upload does not name a form's photo field.");
  const content = await receivedBytes(db, upload.id);
  const contentType = sniffFile(field.rule.type, content.subarray(0, SNIFFED_BYTES));
  if (!contentType) {
    await datastore.remove(upload.id);
    throw refusal(415, field.rule.messages.wrongType);
  }
  const { formType, fieldName, filename } = upload.metadata as ResumableUploadMetadata;
  const fileName = displayFileName(filename);
  const record = { ownerId: Number(upload.metadata?.ownerId), formType, fieldName, fileName };
  // In the work pool, as a posted photo is, with the thumbnail its form's document takes: at Submit, only the
  // document is left to make.
  const photo = { fieldName, fileName, contentType, content };
  const cleaned = await cleanPhotoInPool(config, field.rule, photo).catch((error: unknown) => {
    throw error instanceof WorkPoolFull ? refusal(503, field.definition.messages.failed) : error;
  });
  if (!cleaned.ok) {
    await keepCleanedUpload(db, upload.id, { ...record, problem: cleaned.reason }, undefined);
    return {};
  }
  const { file, thumbnail, pixels } = cleaned;
  const size = thumbnail && { width: thumbnail.width, height: thumbnail.height };
  const kept = { ...record, fileName: file.fileName, contentType: file.contentType, pixels, thumbnail: size };
  await keepCleanedUpload(db, upload.id, kept, { content: file.content, thumbnail });
  return {};
}
