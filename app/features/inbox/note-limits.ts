/** The longest internal note staff can add, checked in the browser and on the server. */
export const NOTE_MAX_LENGTH = 5_000;
