import { Link } from "react-router";
import { company } from "~/content/company";
import { contactPath } from "~/content/navigation";
import { CompanyMarkIcon } from "./company-mark";
import { MainMenu } from "./main-menu";
import { MobileMenu } from "./mobile-menu";

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 bg-white/95 shadow-sm backdrop-blur">
      <div className="bg-brand-800 text-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-2 text-sm sm:px-6">
          <p>{company.serviceAreaLine}</p>
          <Link
            to={contactPath}
            className="shrink-0 rounded-full bg-white px-4 py-1.5 font-semibold text-brand-900 hover:bg-brand-50"
          >
            Contact Us
          </Link>
        </div>
      </div>
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-6 px-4 py-3 sm:px-6">
        <Link to="/" className="flex items-center gap-2 text-lg font-extrabold tracking-tight text-slate-900">
          <CompanyMarkIcon />
          {company.name}
        </Link>
        <MainMenu
          className="hidden lg:block"
          listClassName="flex items-center gap-1"
          linkClassName="rounded-md px-2 py-2 text-sm font-medium whitespace-nowrap xl:px-3 text-slate-700 hover:bg-brand-50 hover:text-brand-800 aria-[current=page]:text-brand-800 aria-[current=page]:underline aria-[current=page]:underline-offset-8"
        />
        <MobileMenu />
      </div>
    </header>
  );
}
