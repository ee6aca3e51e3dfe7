/** Where the checklist asks for a preview of a photo the browser cannot draw itself (a HEIC outside Safari). */
export const PHOTO_PREVIEW_PATH = "/admin/quick-links/estimate-checklist/photo-preview";

/** The multipart field the photo is posted in. */
export const PHOTO_PREVIEW_FIELD = "photo";
