import type { StoredFile } from "./submission-files.server";
import type { EncodedBody } from "./webhook-sender.server";

/**
 * What a multipart webhook delivery stores as its body: the parts in order, each a text value or "the files
 * the submission stored under this field name". The files stay in submission_files, so a large upload is not
 * copied into every delivery row.
 */
export type MultipartBody = { parts: Array<{ name: string; value: string } | { name: string; storedFiles: true }> };

export function isMultipartBody(body: unknown): body is MultipartBody {
  return typeof body === "object" && body !== null && Array.isArray((body as MultipartBody).parts);
}

/** The multipart/form-data bytes and content type (with its boundary) of a body and its submission's files. */
export async function encodeMultipart(body: MultipartBody, files: StoredFile[]): Promise<EncodedBody> {
  const form = new FormData();
  for (const part of body.parts) {
    if ("value" in part) {
      form.append(part.name, part.value);
      continue;
    }
    const matching = files.filter((file) => file.fieldName === part.name);
    if (matching.length === 0) throw new Error(`no stored file for the "${part.name}" part`);
    for (const file of matching) {
      form.append(part.name, new Blob([new Uint8Array(file.content)], { type: file.contentType }), file.fileName);
    }
  }
  // Response encodes FormData exactly as fetch would send it, and tells the boundary it chose.
  const encoded = new Response(form);
  const contentType = encoded.headers.get("content-type");
  if (!contentType) throw new Error("the multipart body has no content type");
  return { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType };
}
