import { describe, expect, it } from "vitest";
import { clusterSiteUrl } from "./cluster-site-url";

describe("npm run cluster's SITE_URL", () => {
  it("is the address nginx listens on when SITE_URL is unset or empty, so the pages are built for it", () => {
    expect(clusterSiteUrl(undefined, 8080)).toBe("http://127.0.0.1:8080");
    expect(clusterSiteUrl("", 9090)).toBe("http://127.0.0.1:9090");
  });

  it("is the one given otherwise", () => {
    expect(clusterSiteUrl("https://www.example.com", 8080)).toBe("https://www.example.com");
  });
});
