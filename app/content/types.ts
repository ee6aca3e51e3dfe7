/** An image slot. `name` is the file stem in `assets/images/`; width and height are the source's intrinsic size. */
export type ImageRef = {
  name: string;
  alt: string;
  width: number;
  height: number;
};

export type MenuItem = { id: string; name: string; path: string };

export type ServiceTile = { id: string; name: string; image: ImageRef; path: string };

export type ValuePillar = { id: string; title: string; description: string };

export type BeforeAfterPair = { id: string; before: ImageRef; after: ImageRef; caption: string };

export type ClientLogo = { id: string; name: string; image: ImageRef };

export type Testimonial = { quote: string; reviewer: string; organisation: string };

export type ServicePage = {
  id: "lighting" | "healthcare" | "education" | "commercial";
  path: string;
  title: string;
  metaDescription: string;
  bannerImage: ImageRef;
  bannerImageText: string;
  images: ImageRef[];
  paragraphs: [string] | [string, string];
};
