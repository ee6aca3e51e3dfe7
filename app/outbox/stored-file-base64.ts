/**
 * Values in a JSON delivery body that stand for stored files of the submission, as base64. The worker puts the
 * files' bytes in when it sends (stored-file-json.server.ts), so a PDF is stored once, in submission_files, and
 * not again as base64 in every delivery row, as multipart bodies name their files.
 */
export type StoredFileBase64 = { storedFileBase64: string };
export type StoredFilesBase64 = { storedFilesBase64: string };

/**
 * Where files are stored: a file field, as its builder made it (`photo(...)`, `file(...)`), which holds at most
 * `maxCount` files, or a document the server makes (`serverDocument`).
 */
export type StoredFileSource<Count extends number = number> = {
  definition: { name: string; accepts: { maxCount: Count } };
};

/**
 * The base64 of the one file stored from `source`, filled in at send time; null if none. Only a source of one
 * file: a field of several is a type error here, and goes as `storedFilesBase64`.
 */
export function storedFileBase64(source: StoredFileSource<1>): StoredFileBase64 {
  return { storedFileBase64: source.definition.name };
}

/** The base64 of every file stored from `source`, in the order they were sent: [] if none. */
export function storedFilesBase64(source: StoredFileSource): StoredFilesBase64 {
  return { storedFilesBase64: source.definition.name };
}

/** The one file the server makes and stores under `fieldName` (a form's PDF), as a source of stored files. */
export function serverDocument(fieldName: string): StoredFileSource<1> {
  return { definition: { name: fieldName, accepts: { maxCount: 1 } } };
}

export function isStoredFileBase64(value: unknown): value is StoredFileBase64 {
  return isMarker(value, "storedFileBase64");
}

export function isStoredFilesBase64(value: unknown): value is StoredFilesBase64 {
  return isMarker(value, "storedFilesBase64");
}

function isMarker(value: unknown, key: string): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.keys(value).length === 1 &&
    typeof (value as Record<string, unknown>)[key] === "string"
  );
}
