import { expect, it } from "vitest";
import { textAnswers } from "./text-answers";

it("gives every field's answer in the fields' order, and an empty text for one not given", () => {
  const fields = [{ name: "jobName" }, { name: "notes" }, { name: "phone" }] as const;
  const answers = textAnswers(fields, { phone: "803 555 0100", jobName: "Roof" });
  expect(Object.entries(answers)).toEqual([
    ["jobName", "Roof"],
    ["notes", ""],
    ["phone", "803 555 0100"],
  ]);
});
