import { describe, expect, it } from "vitest";
import { checkAnswers } from "./check-answers";
import { computed, email, formFields, optional, radio, select, text, yesNo } from "./field-builders";

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
