import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formActionHarness } from "#tests/form-action";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { submissions } from "~/services/db/schema.server";
import { defineForm } from "./definition";
import { file, formFields, photo, text } from "./field-builders";
import { PDF } from "./file-types";
import { formMessages } from "./messages";
import { REQUIRED_MESSAGE } from "./required-message";
import { submitForm } from "./submit-form.server";

/** A public form whose file fields may not be left empty: one of a single file, one of up to three photos. */
const claim = formFields(
  text("name", "Name", { max: 200 }),
  file("receipt", "Receipt", PDF, { maxBytes: 1024 * 1024, maxCount: 1 }),
  photo("photos", "Photos", { maxBytes: 1024 * 1024, maxCount: 3 }),
);
const claimForm = defineForm({
  type: "required-file-claim",
  label: "Required file claim",
  referencePrefix: "RFC",
  audience: "public",
  statuses: ["New"],
  schema: claim.schema,
  fields: claim.fields,
  contact: (answers: { name: string }) => ({ name: answers.name, email: "", phone: "" }),
  maxBodyBytes: 5 * 1024 * 1024,
  messages: formMessages({ success: "Received." }),
  deliveries: [],
});

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const harness = formActionHarness({ path: "/claim", database: () => database.db, clientIp: "192.0.2.48" });

describe("a required file field left empty", () => {
  it("is answered as missing, with the platform's required message beside each field, and nothing is stored", async () => {
    // As a browser posts file inputs with no file chosen: an empty part with no name.
    const response = await submitForm(
      harness.post({ name: "Dana Whitfield" }, { files: { receipt: undefined, photos: undefined } }),
      harness.contextFor(),
      claimForm,
    );
    const data = response.data as { status: string; message: string; result?: { error?: Record<string, string[]> } };
    expect(data.status).toBe("invalid");
    expect(data.message).toBe(claimForm.messages.missing);
    expect(data.result?.error).toEqual({ receipt: [REQUIRED_MESSAGE], photos: [REQUIRED_MESSAGE] });
    expect(await database.db.$count(submissions)).toBe(0);
  });

  it("is answered as missing when its input is not posted at all", async () => {
    const response = await submitForm(harness.post({ name: "Dana Whitfield" }), harness.contextFor(), claimForm);
    const data = response.data as { result?: { error?: Record<string, string[]> } };
    expect(data.result?.error).toEqual({ receipt: [REQUIRED_MESSAGE], photos: [REQUIRED_MESSAGE] });
  });
});
