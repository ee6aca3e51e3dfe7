/** tus's Upload-Metadata header: each key with its value in base64. */
export const tusMetadata = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");

/**
 * A checklist photo sent up as the page's tus client sends it while the form is filled: the upload created, then
 * the whole photo in one PATCH. `headers` carry the session cookie and the origin.
 */
export async function uploadChecklistPhoto(
  appUrl: string,
  headers: Record<string, string>,
  photo: Uint8Array,
  filename: string,
): Promise<{ created: Response; sent: Response; location: string }> {
  const tus = { ...headers, "tus-resumable": "1.0.0" };
  const created = await fetch(`${appUrl}/admin/uploads`, {
    method: "POST",
    headers: {
      ...tus,
      "upload-length": String(photo.byteLength),
      "upload-metadata": tusMetadata({ formType: "estimate-checklist", fieldName: "photos", filename }),
    },
  });
  const location = created.headers.get("location") ?? "";
  const sent = await fetch(`${appUrl}${location}`, {
    method: "PATCH",
    headers: { ...tus, "upload-offset": "0", "content-type": "application/offset+octet-stream" },
    body: new Uint8Array(photo),
  });
  return { created, sent, location };
}
