/** Where a form's photos go up while it is filled, by the tus protocol, for a signed-in staff user only. */
export const RESUMABLE_UPLOADS_PATH = "/admin/uploads";

/** The hidden field that names, one value per photo already up, the uploads a post takes in place of files. */
export const uploadIdsFieldOf = (fileField: string) => `${fileField}Uploaded`;

/** What the browser tells the upload endpoint of each upload, as tus metadata. */
export type ResumableUploadMetadata = { formType: string; fieldName: string; filename: string };
