/**
 * A value in a JSON delivery body that stands for a stored file of the submission, as base64. The worker puts
 * the file's bytes in when it sends (stored-file-json.server.ts), so a PDF is stored once, in
 * submission_files, and not again as base64 in every delivery row, as multipart bodies name their files.
 */
export type StoredFileBase64 = { storedFileBase64: string };

/** The base64 of the one file the submission stored under `fieldName`, filled in at send time; null if none. */
export function storedFileBase64(fieldName: string): StoredFileBase64 {
  return { storedFileBase64: fieldName };
}

export function isStoredFileBase64(value: unknown): value is StoredFileBase64 {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.keys(value).length === 1 &&
    typeof (value as StoredFileBase64).storedFileBase64 === "string"
  );
}
