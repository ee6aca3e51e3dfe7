import { describe, expect, it } from "vitest";
import { foldText } from "./fold-text";

describe("foldText", () => {
  it("folds accented names and their plain spelling to the same text, whatever the case", () => {
    for (const [written, typed] of [
      ["Nguyễn", "nguyen"],
      ["José", "JOSE"],
      ["Zoë Brontë", "zoe bronte"],
      ["François Müller", "francois muller"],
      ["Ångström", "angstrom"],
    ]) {
      expect(foldText(written ?? "")).toBe(foldText(typed ?? ""));
    }
    expect(foldText("Nguyễn")).toBe("nguyen");
  });

  it("folds the letters NFD leaves whole: đ, ø, ł and ß, in either case", () => {
    expect(foldText("Đặng Đức")).toBe("dang duc");
    expect(foldText("Søren Øster")).toBe("soren oster");
    expect(foldText("Łukasz Wałęsa")).toBe("lukasz walesa");
    expect(foldText("Strauß STRAẞE")).toBe("strauss strasse");
  });

  it("leaves plain text, digits and punctuation as they are, in lower case", () => {
    expect(foldText("EST-7K3QX9 (803) 555-0123")).toBe("est-7k3qx9 (803) 555-0123");
  });
});
