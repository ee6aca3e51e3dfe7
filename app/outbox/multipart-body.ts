/**
 * What a multipart webhook delivery stores as its body: the parts in order, each a text value or "the files
 * the submission stored under this field name". The files stay in submission_files, so a large upload is not
 * copied into every delivery row.
 */
export type MultipartBody = { parts: Array<{ name: string; value: string } | { name: string; storedFiles: true }> };

export function isMultipartBody(body: unknown): body is MultipartBody {
  return typeof body === "object" && body !== null && Array.isArray((body as MultipartBody).parts);
}
