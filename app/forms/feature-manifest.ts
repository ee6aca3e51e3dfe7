import type { AnyFormDefinition } from "./definition";

export type QuickLinkCategory = "Leads" | "Team Management" | "Project Management";

/** The dashboard's order: the leads first, the tool opened all day, then the spec's two categories. */
export const QUICK_LINK_CATEGORIES: readonly QuickLinkCategory[] = ["Leads", "Team Management", "Project Management"];

/** A card on the Quick Links dashboard. */
export type QuickLink = {
  title: string;
  description: string;
  path: string;
  category: QuickLinkCategory;
  /** Where the card sits within its category: the spec's order. */
  position: number;
  /** A card for a screen only admins may open; staff users do not see it. */
  adminOnly?: true;
};

/**
 * What a feature tells the rest of the app about itself, in its folder's feature.ts: the forms whose
 * submissions the inbox shows (with their webhook targets and the settings that name them) and its cards on
 * the Quick Links dashboard. scripts/feature-index.mjs collects every manifest; nothing central lists features.
 */
export type FeatureManifest = {
  forms?: readonly AnyFormDefinition[];
  cards?: readonly QuickLink[];
};

export const defineFeature = (manifest: FeatureManifest): FeatureManifest => manifest;
