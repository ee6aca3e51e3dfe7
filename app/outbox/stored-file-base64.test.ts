import { describe, expect, it } from "vitest";
import { file, optional, photo } from "~/forms/field-builders";
import { PDF } from "~/forms/file-types";
import { serverDocument, storedFileBase64, storedFilesBase64 } from "./stored-file-base64";
import { encodeJsonWithStoredFiles } from "./stored-file-json.server";

const photos = photo("photos", "Photos", { maxBytes: 1024, maxCount: 3 });
const receipt = optional(file("receipt", "Receipt", PDF, { maxBytes: 1024, maxCount: 1 }));

const sent = (body: unknown, files: { fieldName: string; content: Buffer }[]) =>
  JSON.parse(new TextDecoder().decode(encodeJsonWithStoredFiles(body, files).bytes));

describe("stored files in a JSON webhook body", () => {
  it("takes a field of several files only as a list: as one, it does not type-check", () => {
    // @ts-expect-error a field of up to three photos is not one file: `npm run typecheck` fails without this line
    storedFileBase64(photos);
    // @ts-expect-error nor is a field whose count the types do not know
    storedFileBase64({ definition: { name: "photos", accepts: { maxCount: 3 as number } } });
    expect(storedFileBase64(receipt)).toEqual({ storedFileBase64: "receipt" });
    expect(storedFileBase64(serverDocument("pdf"))).toEqual({ storedFileBase64: "pdf" });
  });

  it("sends every photo of a field of several, in order, and an empty list for none", () => {
    const body = { photos: storedFilesBase64(photos), receipt: storedFileBase64(receipt) };
    const stored = ["one", "two", "three"].map((word) => ({ fieldName: "photos", content: Buffer.from(word) }));
    expect(sent(body, stored)).toEqual({
      photos: ["one", "two", "three"].map((word) => Buffer.from(word).toString("base64")),
      receipt: null,
    });
    expect(sent(body, [])).toEqual({ photos: [], receipt: null });
  });
});
