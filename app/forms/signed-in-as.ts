/**
 * The hidden field of a staff form that names the user it was filled in by: the server stores it only under that
 * user's session (submitForm), since a form kept on a device two people share may come back under the other's.
 */
export const SIGNED_IN_AS_FIELD = "signedInAs";
