import { useForm } from "@conform-to/react";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { FieldDefinition } from "~/forms/definition";
import { REQUIRED_MESSAGE } from "~/forms/required-message";
import { ChoiceField } from "./choice-field";
import { DefinedField, DefinedFields } from "./defined-field";
import { FileField } from "./file-field";
import { SelectField } from "./select-field";
import { TextAreaField } from "./text-area-field";
import { TextField } from "./text-field";

/** The attributes of the first element matching `tag` with `attribute="value"`, read from static markup. */
function element(html: string, tag: string, attribute?: string, value?: string): Record<string, string> {
  for (const match of html.matchAll(new RegExp(`<${tag}(\\s[^>]*)?>`, "g"))) {
    const attributes = Object.fromEntries(
      [...(match[1] ?? "").matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, name, text]) => [
        name?.toLowerCase(),
        text ?? "",
      ]),
    );
    if (attribute === undefined || attributes[attribute] === value) return attributes;
  }
  throw new Error(`no <${tag}${attribute ? ` ${attribute}="${value}"` : ""}> in ${html}`);
}

/** The text inside the element with this id. */
function textOf(html: string, id: string): string {
  const match = new RegExp(`<(\\w+)[^>]*\\sid="${id}"[^>]*>(.*?)</\\1>`).exec(html);
  if (!match) throw new Error(`no element #${id} in ${html}`);
  return (match[2] ?? "").replace(/<[^>]+>/g, "");
}

/** What a screen reader says for the control: its label, and its description (hint, then error). */
function announced(html: string, control: Record<string, string>) {
  const label = element(html, "label", "for", control.id ?? "");
  expect(label).toBeDefined();
  const labelText = new RegExp(`<label[^>]*for="${control.id}"[^>]*>(.*?)</label>`).exec(html)?.[1] ?? "";
  return {
    label: labelText.replace(/<[^>]+>/g, ""),
    description: (control["aria-describedby"] ?? "")
      .split(" ")
      .filter(Boolean)
      .map((id) => textOf(html, id)),
    invalid: control["aria-invalid"] === "true",
  };
}

describe("the field kit ties each control to its label, hint and error", () => {
  it("a plain text field, as the staff screens use it without Conform", () => {
    const html = renderToStaticMarkup(
      <TextField
        label="Password"
        name="password"
        kind="password"
        hint="At least 12 characters."
        errors={["A password has at least 12 characters"]}
      />,
    );
    const input = element(html, "input", "name", "password");
    expect(input.type).toBe("password");
    expect(announced(html, input)).toEqual({
      label: "Password",
      description: ["At least 12 characters.", "A password has at least 12 characters"],
      invalid: true,
    });
  });

  it("a field without errors is neither invalid nor described by an error", () => {
    const html = renderToStaticMarkup(<TextField label="Search" name="q" kind="search" defaultValue="Avery" />);
    const input = element(html, "input", "name", "q");
    expect(input.value).toBe("Avery");
    expect(announced(html, input)).toEqual({ label: "Search", description: [], invalid: false });
  });

  it("a soft check's warning is said under the field and describes it, without marking it invalid", () => {
    const html = renderToStaticMarkup(
      <TextField label="Phone Number" name="phone" kind="tel" defaultValue="555" warning="Fewer than ten digits." />,
    );
    expect(announced(html, element(html, "input", "name", "phone"))).toEqual({
      label: "Phone Number",
      description: ["Fewer than ten digits."],
      invalid: false,
    });
  });

  it("suggestions are offered from a datalist; a declared keypad wins over the kind's, which stays otherwise", () => {
    const html = renderToStaticMarkup(
      <>
        <TextField label="Peer Review for" name="reviewFor" suggestions={["Avery Jones", "Sam Ortiz"]} />
        <TextField label="ZIP Code" name="zip" inputMode="numeric" />
        <TextField label="Amount" name="amount" kind="money" inputMode={undefined} />
      </>,
    );
    const list = element(html, "input", "name", "reviewFor").list ?? "";
    expect(html).toContain(
      `<datalist id="${list}"><option value="Avery Jones"></option><option value="Sam Ortiz"></option></datalist>`,
    );
    expect(element(html, "input", "name", "zip").inputmode).toBe("numeric");
    expect(element(html, "input", "name", "amount").inputmode).toBe("decimal");
  });

  it("a missing answer marks the field; it says so under the field only where the form asks for it", () => {
    const quiet = renderToStaticMarkup(<TextField label="City" name="city" errors={[REQUIRED_MESSAGE]} />);
    expect(announced(quiet, element(quiet, "input", "name", "city"))).toEqual({
      label: "City",
      description: [],
      invalid: true,
    });
    const said = renderToStaticMarkup(
      <TextField label="City" name="city" errors={[REQUIRED_MESSAGE]} requiredText="This field is required." />,
    );
    expect(announced(said, element(said, "input", "name", "city")).description).toEqual(["This field is required."]);
  });

  it("textarea, drop-down and file picker, each with its optional mark, hint and error", () => {
    const html = renderToStaticMarkup(
      <>
        <TextAreaField label="Comments" name="comments" optional hint="Anything else." errors={["Too long"]} />
        <SelectField
          label="Desired role"
          name="desiredRole"
          emptyOption="Choose one"
          options={[{ value: "Helper", label: "Helper" }]}
          hint="Pick the closest."
          errors={["Choose a role from the list"]}
        />
        <FileField label="Resume" name="resume" optional hint="A PDF." errors={["File size should be less than 5MB"]} />
      </>,
    );
    expect(announced(html, element(html, "textarea", "name", "comments"))).toEqual({
      label: "Comments (optional)",
      description: ["Anything else.", "Too long"],
      invalid: true,
    });
    expect(announced(html, element(html, "select", "name", "desiredRole"))).toEqual({
      label: "Desired role",
      description: ["Pick the closest.", "Choose a role from the list"],
      invalid: true,
    });
    expect(announced(html, element(html, "input", "name", "resume"))).toEqual({
      label: "Resume (optional)",
      description: ["A PDF.", "File size should be less than 5MB"],
      invalid: true,
    });
  });

  it("a yes/no question is a group named by its legend, described by its hint and error", () => {
    const html = renderToStaticMarkup(
      <ChoiceField
        label="Do you have a driver's license?"
        name="hasDriversLicense"
        hint="Any state."
        defaultValue="no"
        errors={[REQUIRED_MESSAGE]}
        requiredText="Please choose yes or no."
      />,
    );
    const fieldset = element(html, "fieldset");
    expect(fieldset["aria-invalid"]).toBe("true");
    expect((fieldset["aria-describedby"] ?? "").split(" ").map((id) => textOf(html, id))).toEqual([
      "Any state.",
      "Please choose yes or no.",
    ]);
    expect(html).toContain("<legend");
    expect(/<legend[^>]*>(.*?)<\/legend>/.exec(html)?.[1]).toBe("Do you have a driver&#x27;s license?");
    expect(element(html, "input", "value", "no")).toHaveProperty("checked");
    expect(element(html, "input", "value", "yes")).not.toHaveProperty("checked");
  });
});

function ConformEmail({ definition }: { definition: FieldDefinition }) {
  const [, fields] = useForm<Record<string, string>>({
    id: "estimate",
    lastResult: {
      status: "error",
      initialValue: { [definition.name]: "not-an-address" },
      error: { [definition.name]: ["Enter an email address such as name@example.com"] },
    },
  });
  const field = fields[definition.name];
  return field ? <DefinedField definition={definition} field={field} /> : null;
}

describe("a field drawn from its definition with Conform's metadata", () => {
  it("takes Conform's id, name, answer and error, and the definition's label, kind and autocomplete", () => {
    const html = renderToStaticMarkup(
      <ConformEmail definition={{ name: "email", label: "Email", kind: "email", autoComplete: "email" }} />,
    );
    const input = element(html, "input", "name", "email");
    expect(input).toMatchObject({
      id: "estimate-email",
      type: "email",
      autocomplete: "email",
      value: "not-an-address",
    });
    expect(announced(html, input)).toEqual({
      label: "Email",
      description: ["Enter an email address such as name@example.com"],
      invalid: true,
    });
  });

  it("asks a phone for the right keyboard: decimal for money, numeric for a count", () => {
    const money = renderToStaticMarkup(
      <ConformEmail definition={{ name: "budget", label: "Budget", kind: "money" }} />,
    );
    expect(element(money, "input", "name", "budget")).toMatchObject({ type: "text", inputmode: "decimal" });
    const count = renderToStaticMarkup(<ConformEmail definition={{ name: "years", label: "Years", kind: "number" }} />);
    expect(element(count, "input", "name", "years")).toMatchObject({ type: "number", inputmode: "numeric" });
  });
});

const SECTIONED: readonly FieldDefinition[] = [
  { name: "firstName", label: "First name", kind: "text", section: "Personal Information" },
  { name: "hasDriversLicense", label: "Do you have a driver's license?", kind: "yesNo", section: "Transportation" },
  { name: "licenseNumber", label: "Driver's license number", kind: "text", section: "Transportation" },
  { name: "hasReliableTransportation", label: "Reliable transportation?", kind: "yesNo", section: "Transportation" },
];

function SectionOfForm({ replace }: { replace?: Record<string, ReactNode> }) {
  const [, fields] = useForm<Record<string, string>>({ id: "application" });
  return (
    <DefinedFields definitions={SECTIONED} fields={fields} section="Transportation" sayRequired replace={replace} />
  );
}

describe("a section drawn from the definition", () => {
  it("is a region named by its heading, holding that section's questions in their order", () => {
    const html = renderToStaticMarkup(<SectionOfForm />);
    const section = element(html, "section");
    expect(textOf(html, section["aria-labelledby"] ?? "")).toBe("Transportation");
    expect(html).not.toContain("First name");
    const order = ["hasDriversLicense", "licenseNumber", "hasReliableTransportation"].map((name) =>
      html.indexOf(`name="${name}"`),
    );
    expect(order.every((position, index) => position > (order[index - 1] ?? -1))).toBe(true);
  });

  it("puts a form's own rendering in a field's place, and leaves out a field replaced by null", () => {
    const html = renderToStaticMarkup(
      <SectionOfForm replace={{ hasDriversLicense: <p id="own">follow-up pair</p>, licenseNumber: null }} />,
    );
    expect(textOf(html, "own")).toBe("follow-up pair");
    expect(html).not.toContain('name="licenseNumber"');
    expect(html).toContain('name="hasReliableTransportation"');
  });
});
