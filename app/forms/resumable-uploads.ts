/** Where a form's photos go up while it is filled, by the tus protocol, for a signed-in staff user only. */
export const RESUMABLE_UPLOADS_PATH = "/admin/uploads";

/** The hidden field that names, one value per photo already up, the uploads a post takes in place of files. */
export const uploadIdsFieldOf = (fileField: string) => `${fileField}Uploaded`;

/** What the browser tells the upload endpoint of each upload, as tus metadata. */
export type ResumableUploadMetadata = { formType: string; fieldName: string; filename: string };

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Why the upload endpoint refuses a new upload whose photo then goes with the form, shown next to the photo. */
export const UPLOAD_REFUSALS = {
  overPersonCap: (capBytes: number) =>
    `Your photos going up ahead of the form already take the ${megabytes(capBytes)} one person may hold there. This photo stays in the form and is sent with it when you submit.`,
  diskLow:
    "The server is short of disk space, so this photo cannot go up ahead of the form. It stays in the form and goes with it when you submit; if the server is still short of space then, the form says so and keeps your answers.",
};
