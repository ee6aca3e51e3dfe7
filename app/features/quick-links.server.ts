import { QUICK_LINK_CATEGORIES, type QuickLink } from "~/forms/feature-manifest";
import { featureManifests } from "./feature-index.generated.server";

/** The dashboard's cards, from the features' manifests: by category, then in each card's position. */
const quickLinks: readonly QuickLink[] = featureManifests
  .flatMap((feature) => feature.cards ?? [])
  .sort(
    (one, other) =>
      QUICK_LINK_CATEGORIES.indexOf(one.category) - QUICK_LINK_CATEGORIES.indexOf(other.category) ||
      one.position - other.position,
  );

/** The cards a staff user of that role sees. */
export function quickLinksFor(isAdmin: boolean): readonly QuickLink[] {
  return quickLinks.filter((link) => isAdmin || !link.adminOnly);
}

/** The cards that open a staff tool of ours; the staff navigation lists these too, after Quick Links and Inbox. */
export const staffToolLinks = quickLinks
  .filter((link) => link.path.startsWith("/admin/quick-links/"))
  .map(({ title, path }) => ({ label: title, path }));
