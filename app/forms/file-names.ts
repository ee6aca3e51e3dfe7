/** Control characters, and format characters: bidi overrides and isolates, zero-width marks, soft hyphens. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;
const MAX_DISPLAY_LENGTH = 200;

/**
 * A sender's file name as text to show staff, and nothing more: without the control and bidi characters that
 * can make `invoice\u202Efdp.exe` read as `invoiceexe.pdf`, on one line, of a bounded length.
 */
export function displayFileName(name: string): string {
  const cleaned = name.replace(INVISIBLE, "").replace(/\s+/g, " ").trim().slice(0, MAX_DISPLAY_LENGTH);
  return cleaned || "(no name)";
}

const EXTENSIONS: Record<string, string> = {
  "application/pdf": "pdf",
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/heic": "heic",
  "image/heif": "heif",
};

/**
 * The name an uploaded file is served and forwarded under: the submission's reference, the field, a number
 * when the field holds several, and the extension of the type found in its content (`APP-T6K1MW-resume.pdf`).
 * Nothing of the sender's name is in it, so a `.hta` that starts with `%PDF-` is offered as a PDF.
 */
function generatedFileName(reference: string, fieldName: string, contentType: string, number: string): string {
  const role = fieldName.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`).replace(/[^a-z0-9-]/g, "");
  return `${reference}-${role}${number}.${EXTENSIONS[contentType] ?? "bin"}`;
}

type NamedFile = { fieldName: string; fileName: string; contentType: string; uploaded?: boolean };

/**
 * The names each of a submission's files is stored, served and forwarded under, in order: an upload's made
 * by generatedFileName, with the sender's kept as `sentAs`; a document the app made keeps its own.
 */
export function storedFileNames(
  reference: string,
  files: readonly NamedFile[],
): Array<{ fieldName: string; fileName: string; sentAs: string | null }> {
  return files.map((file) => {
    if (!file.uploaded) return { fieldName: file.fieldName, fileName: file.fileName, sentAs: null };
    const sameField = files.filter((other) => other.uploaded && other.fieldName === file.fieldName);
    const number = sameField.length > 1 ? `-${sameField.indexOf(file) + 1}` : "";
    return {
      fieldName: file.fieldName,
      fileName: generatedFileName(reference, file.fieldName, file.contentType, number),
      sentAs: displayFileName(file.fileName),
    };
  });
}
