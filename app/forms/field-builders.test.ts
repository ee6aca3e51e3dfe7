import { describe, expect, it } from "vitest";
import { checkAnswers } from "./check-answers";
import { defineForm } from "./definition";
import { computed, email, file, formFields, optional, photo, radio, select, text, yesNo } from "./field-builders";
import { PDF } from "./file-types";
import { formMessages } from "./messages";

const { schema, fields } = formFields(
  text("name", "Name", { max: 5, section: "You", autoComplete: "name" }),
  optional(email("email", "Email", { section: "You" })),
  yesNo("member", "Are you a member?"),
  select("role", "Role", ["Helper", "Electrician"], "Choose a role from the list"),
  radio("size", "Size", [{ value: "small", label: "Small", note: "Fits one" }], "Choose small"),
  computed("total", "Total", (payload) => payload.total),
);

describe("formFields", () => {
  it("defines each field once, for both the form's schema and its printed definitions, in the same order", () => {
    expect(fields).toEqual([
      { name: "name", label: "Name", kind: "text", section: "You", autoComplete: "name" },
      { name: "email", label: "Email", kind: "email", section: "You", optional: true },
      { name: "member", label: "Are you a member?", kind: "yesNo" },
      {
        name: "role",
        label: "Role",
        kind: "select",
        options: [
          { value: "Helper", label: "Helper" },
          { value: "Electrician", label: "Electrician" },
        ],
      },
      { name: "size", label: "Size", kind: "radio", options: [{ value: "small", label: "Small", note: "Fits one" }] },
      { name: "total", label: "Total", kind: "text", read: expect.any(Function) },
    ]);
    expect(Object.keys(schema.shape)).toEqual(["name", "email", "member", "role", "size"]);
  });

  it("checks each answer with the messages its builder names, and lets an optional one be left out", () => {
    expect(checkAnswers(schema, { name: "Ana", member: "yes", role: "Helper", size: "small" })).toEqual({
      value: { name: "Ana", member: "yes", role: "Helper", size: "small" },
    });
    expect(
      checkAnswers(schema, { name: "Anabelle", email: "ana", member: "maybe", role: "Boss", size: "big" }),
    ).toEqual({
      error: {
        name: ["Name is too long (at most 5 characters)"],
        email: ["Enter an email address such as name@example.com"],
        member: ["Choose yes or no"],
        role: ["Choose a role from the list"],
        size: ["Choose small"],
      },
    });
    expect(checkAnswers(schema, {})).toEqual({
      error: { name: ["required"], member: ["required"], role: ["required"], size: ["required"] },
    });
  });
});

describe("file and photo fields", () => {
  const photos = formFields(
    optional(photo("photos", "Site Photos", { maxBytes: 10, maxCount: 2 })),
    optional(file("resume", "Resume", PDF, { maxBytes: 10, maxCount: 1, messages: { tooLarge: "Too big." } })),
  );
  const form = defineForm({
    type: "claim",
    label: "Claim",
    referencePrefix: "CLM",
    audience: "staff",
    statuses: ["New"],
    schema: photos.schema,
    fields: photos.fields,
    contact: () => ({ name: "", email: "", phone: "" }),
    maxBodyBytes: 1024,
    messages: formMessages({}),
    deliveries: [],
  });
  const checked = (value: Record<string, unknown>) => photos.schema.safeParse(value);
  const bytes = (size: number, type: string) => new File([new Uint8Array(size)], "f", { type });

  it("give the server the same limits and messages as the browser's check, from one set of options", () => {
    expect(form.files).toEqual([
      expect.objectContaining({ field: "photos", maxBytes: 10, maxCount: 2, type: "photo", photos: {} }),
      expect.objectContaining({ field: "resume", maxBytes: 10, maxCount: 1, type: "pdf", photos: undefined }),
    ]);
    expect(form.files[1]?.messages.tooLarge).toBe("Too big.");
    expect(checked({ resume: bytes(11, "application/pdf") }).error?.issues[0]?.message).toBe("Too big.");
    expect(checked({ photos: [bytes(1, ""), bytes(1, ""), bytes(1, "")] }).error?.issues[0]?.message).toBe(
      form.files[0]?.messages.tooMany,
    );
  });

  it("check a declared type only where browsers agree on it: a PDF, not a photo", () => {
    expect(checked({ photos: bytes(5, "") }).success).toBe(true);
    expect(checked({ resume: bytes(5, "text/plain") }).error?.issues[0]?.message).toBe(
      form.files[1]?.messages.wrongType,
    );
    expect(checked({}).success).toBe(true);
  });
});
