import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import { submissionTypes } from "~/features/submission-types.server";
import type { AnyFormDefinition } from "~/forms/definition";

describe.each(submissionTypes.map((definition) => [definition.type, definition] as const))(
  "the %s definition",
  (_, definition: AnyFormDefinition) => {
    it("labels every field its schema reads, and reads every labelled field from the schema or the payload", () => {
      const shape = (definition.schema as unknown as z.ZodMiniObject).def.shape;
      const schemaKeys = Object.keys(shape);
      const fieldNames = definition.fields.map((field) => field.name);
      expect(new Set(fieldNames).size, "a field is listed twice").toBe(fieldNames.length);
      for (const key of schemaKeys) expect(fieldNames, `no label for ${key}`).toContain(key);
      for (const field of definition.fields) {
        const known = schemaKeys.includes(field.name) || field.read !== undefined;
        expect(known, `${field.name} is neither in the schema nor read from the payload`).toBe(true);
        expect(field.label.trim()).not.toBe("");
      }
    });
  },
);

describe("the definitions", () => {
  const featuresDir = path.join(import.meta.dirname, "features");
  const definitionFiles = readdirSync(featuresDir, { recursive: true, encoding: "utf8" }).filter(
    (file) => path.basename(file) === "definition.ts",
  );

  it("are all registered, so no form's submissions are missing from the inbox", () => {
    expect(definitionFiles.length).toBe(submissionTypes.length);
  });

  it("each have a contract test beside them, which holds their webhooks and printing to spec §7", () => {
    for (const file of definitionFiles) {
      const contract = path.join(featuresDir, path.dirname(file), "contract.test.ts");
      expect(readFileSync(contract, "utf8"), `${contract}`).toContain("describeFormContract(");
    }
  });
  it("import nothing server-only, since the form's page imports its definition into the browser", () => {
    for (const file of definitionFiles) {
      const source = readFileSync(path.join(featuresDir, file), "utf8");
      const imports = [...source.matchAll(/from "([^"]+)"/g)].map((match) => match[1] ?? "");
      for (const imported of imports) {
        expect(imported.endsWith(".server"), `${file} imports ${imported}`).toBe(false);
      }
    }
  });
});
