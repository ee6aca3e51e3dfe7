import type { MultipartBody } from "./multipart-body";
import type { StoredFile } from "./submission-files.server";
import type { EncodedBody } from "./webhook-sender.server";

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
