import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { lengthConstraintsOf } from "./field-limits";
import { optionalTextField, textField } from "./text-field";

describe("lengthConstraintsOf", () => {
  it("reads each text field's cap, required or optional, and leaves out fields without one and files", () => {
    const schema = z.object({
      name: textField("Name", 80),
      note: optionalTextField("Note", 2000),
      email: textField("Email", 254).check(z.regex(z.regexes.email, "bad")),
      count: z.number(),
      resume: z.optional(z.file().check(z.maxSize(1024))),
    });
    expect(lengthConstraintsOf(schema)).toEqual({
      name: { maxLength: 80 },
      note: { maxLength: 2000 },
      email: { maxLength: 254 },
    });
  });
});
