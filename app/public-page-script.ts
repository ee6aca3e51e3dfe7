import { enhanceGlideLinks } from "./components/enhancements/glide-links";
import { enhanceLengthCounters } from "./components/enhancements/length-counters";
import { enhanceMobileMenuOf } from "./components/enhancements/mobile-menu";
import { enhanceSlideshow } from "./components/enhancements/slideshow";
import { enhanceEstimateForm } from "./features/estimate/estimate-form-script";

/*
 * The one script of the public marketing pages, which render without React's hydration scripts: it is
 * inlined into each of them (root.tsx) and runs once the page is parsed. Everything it adds, the pages also
 * do without it: the menu is a popover, the form posts to its page, the slideshows show their first slide.
 */

enhanceMobileMenuOf(document);
for (const slideshow of document.querySelectorAll<HTMLElement>("[data-slideshow]")) enhanceSlideshow(slideshow);
enhanceGlideLinks(document);
enhanceLengthCounters(document);
enhanceEstimateForm(document);
