import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { defaultSiteContent, siteContentSchema, telHref, withDefaults, withPhone } from "./site-content";

describe("the site's content", () => {
  it("starts from today's site, which passes its own rules", () => {
    expect(siteContentSchema.safeParse(defaultSiteContent).error).toBeUndefined();
    expect(defaultSiteContent.company.phone).toBe("(803) 555-0142");
    expect(telHref(defaultSiteContent.company.phone)).toBe("tel:+18035550142");
    expect(withPhone(defaultSiteContent.estimate.nextSteps.residential, defaultSiteContent)).toBe(
      "Questions in the meantime? Call us at (803) 555-0142.",
    );
  });

  it("keeps what the owner wrote and gives a field added since its default", () => {
    const { pages: _addedSince, ...stored } = structuredClone(defaultSiteContent);
    stored.home.testimonials = [
      { quote: "Fast and tidy.", reviewer: "Sam Owner", organisation: "Owner, Sam's Diner" },
      { quote: "On time.", reviewer: "Ali Manager", organisation: "Manager, Ali's Gym" },
    ];
    stored.company.phone = "(803) 555-0199";
    const { mapTitle: _alsoAddedSince, ...company } = stored.company;

    const content = withDefaults({ ...stored, company, aFieldSinceRemoved: "gone" });

    expect(content.home.testimonials).toEqual(stored.home.testimonials);
    expect(content.company.phone).toBe("(803) 555-0199");
    expect(content.pages).toEqual(defaultSiteContent.pages);
    expect(content.company.mapTitle).toBe(defaultSiteContent.company.mapTitle);
    expect(content).not.toHaveProperty("aFieldSinceRemoved");
  });

  it("says what is wrong next to each field, in plain words", () => {
    const content = structuredClone(defaultSiteContent);
    content.home.beforeAfterPairs = content.home.beforeAfterPairs.slice(0, 1);
    content.home.testimonials = [];
    content.company.phone = "call us";
    content.services.lighting.bannerImage.alt = " ";
    const messages = Object.fromEntries(
      (siteContentSchema.safeParse(content).error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]),
    );
    expect(messages).toEqual({
      "home.beforeAfterPairs": "Add at least 2 before and after pairs",
      "home.testimonials": "Add at least one testimonial",
      "company.phone": "Enter a phone number such as (803) 555-0142",
      "services.lighting.bannerImage.alt": "required",
    });
    expect(z.safeParse(siteContentSchema, withDefaults(null)).success).toBe(true);
  });
});
