import { Link } from "react-router";
import { contactPath } from "~/content/navigation";
import { telHref } from "~/content/phone";
import { CompanyMarkIcon } from "./company-mark";
import { MainMenu } from "./main-menu";
import { MobileMenu } from "./mobile-menu";
import { useSiteChrome } from "./site-chrome";

export function SiteHeader() {
  const { company } = useSiteChrome();
  return (
    // Its rows have fixed heights that add up to --site-header-height, the page's scroll padding (app.css).
    <header className="site-header sticky top-0 z-40 h-(--site-header-height) bg-white/95 shadow-sm backdrop-blur">
      <div className="bg-brand-800 text-white">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-4 px-4 text-sm sm:h-12 sm:px-6">
          <p className="line-clamp-2">{company.serviceAreaLine}</p>
          <Link
            reloadDocument
            to={contactPath}
            className="inline-flex min-h-11 shrink-0 items-center rounded-full bg-white px-4 font-semibold text-brand-900 hover:bg-brand-50"
          >
            Contact Us
          </Link>
        </div>
      </div>
      <div className="mx-auto flex h-17 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link
          reloadDocument
          to="/"
          className="flex min-h-11 items-center gap-2 text-lg font-extrabold tracking-tight text-slate-900"
        >
          <CompanyMarkIcon />
          {company.name}
        </Link>
        <MainMenu
          className="hidden lg:block"
          listClassName="flex items-center gap-1"
          linkClassName="rounded-md px-2 py-2 text-sm font-medium whitespace-nowrap xl:px-3 text-slate-700 hover:bg-brand-50 hover:text-brand-800 aria-[current=page]:text-brand-800 aria-[current=page]:underline aria-[current=page]:underline-offset-8"
        />
        <div className="flex items-center gap-2 lg:hidden">
          <a
            href={telHref(company.phone)}
            className="inline-flex min-h-11 items-center gap-1.5 rounded-full bg-brand-700 px-3 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="currentColor">
              <path d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.6a1 1 0 0 1-.25 1z" />
            </svg>
            Call<span className="sr-only"> {company.phone}</span>
          </a>
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}
