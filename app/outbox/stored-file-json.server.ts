import { isStoredFileBase64, isStoredFilesBase64 } from "./stored-file-base64";
import type { StoredFile } from "./submission-files.server";
import { type EncodedBody, encodeJson } from "./webhook-sender.server";

/** The file field names a JSON body refers to with `storedFileBase64` or `storedFilesBase64`, anywhere in it. */
export function storedFileFieldsOf(body: unknown): Set<string> {
  const fields = new Set<string>();
  const visit = (value: unknown) => {
    if (isStoredFileBase64(value)) fields.add(value.storedFileBase64);
    else if (isStoredFilesBase64(value)) fields.add(value.storedFilesBase64);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(visit);
  };
  visit(body);
  return fields;
}

/**
 * The JSON bytes of a delivery body, each `storedFileBase64` replaced by the base64 of the file stored under that
 * field name, or null when the submission has none (an optional file left out), and each `storedFilesBase64` by
 * the list of the base64 of every file stored under it. A `storedFileBase64` of several stored files is an error:
 * the body would be wrong (its types let only a source of one file make one).
 */
export function encodeJsonWithStoredFiles(
  body: unknown,
  files: readonly Pick<StoredFile, "fieldName" | "content">[],
): EncodedBody {
  const base64Of = (fieldName: string) =>
    files.filter((file) => file.fieldName === fieldName).map((file) => Buffer.from(file.content).toString("base64"));
  const fill = (value: unknown): unknown => {
    if (isStoredFilesBase64(value)) return base64Of(value.storedFilesBase64);
    if (isStoredFileBase64(value)) {
      const [file, ...others] = base64Of(value.storedFileBase64);
      if (others.length > 0) {
        throw new Error(`expected at most one stored file for "${value.storedFileBase64}", found ${others.length + 1}`);
      }
      return file ?? null;
    }
    if (Array.isArray(value)) return value.map(fill);
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)]));
    }
    return value;
  };
  return encodeJson(fill(body));
}
