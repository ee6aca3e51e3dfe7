/** Where a form fetches its fill-time token (app/routes/fill-token.ts). */
export const FILL_TOKEN_PATH = "/forms/fill-token";
