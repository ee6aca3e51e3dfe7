import { skillsTests } from "./careers";
import type { MainMenuId } from "./site-content";
import type { MenuItem } from "./types";

/** The main menu, in the order of docs/spec.md §2. */
export const mainMenu: (MenuItem & { id: MainMenuId })[] = [
  { id: "home", name: "Home", path: "/" },
  { id: "about", name: "About Us", path: "/learnmore" },
  { id: "lighting", name: "Professional Lighting", path: "/lighting" },
  { id: "healthcare", name: "Healthcare", path: "/healthcare" },
  { id: "education", name: "Education", path: "/education" },
  { id: "commercial", name: "Commercial Electric", path: "/commercial" },
  { id: "apply", name: "Apply", path: "/apply" },
];

export const contactPath = "/learnmore#form";

export const footerLinks: MenuItem[] = [
  { id: "about", name: "About", path: "/learnmore" },
  { id: "services", name: "Services", path: "/#services" },
  { id: "contact", name: "Contact Us", path: contactPath },
];

/** The careers area in the footer: the application and its two skills tests. */
export const careerLinks: MenuItem[] = [
  { id: "apply", name: "Careers: Apply", path: "/apply" },
  ...skillsTests.tests.map((test) => ({ id: test.id, name: test.name, path: test.path })),
];
