/**
 * The error a schema gives a missing answer, which the field kit shows as the form's wording for it. Apart from
 * the schemas (forms/text-field.ts, content/site-content.ts), so that the kit's looks do not bring zod to pages
 * without a form.
 */
export const REQUIRED_MESSAGE = "required";
