import { Link } from "react-router";
import { formatAddress } from "~/content/company";
import { careerLinks, contactPath, footerLinks } from "~/content/navigation";
import { telHref } from "~/content/phone";
import { privacyPath } from "~/content/privacy";
import type { SiteChrome } from "~/content/site-chrome";
import { useSiteChrome } from "./site-chrome";
import { TrustDetails } from "./trust-details";

type Company = SiteChrome["company"];
type FooterLink = { id: string; name: string; path: string };

const footerLinkClass = "inline-flex min-h-11 items-center underline-offset-4 hover:underline";

const labelled = (links: FooterLink[], labels: Partial<Record<string, string>>) =>
  links.map((link) => ({ ...link, name: labels[link.id] ?? link.name }));

/** The band above the footer: the phone to call and the way to the contact page. */
function CallToAction({ phone }: { phone: string }) {
  return (
    <div className="bg-brand-700 text-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-6 sm:px-6">
        <p className="text-lg font-semibold">
          Ready to plan your next project?{" "}
          <a href={telHref(phone)} className="underline underline-offset-4 hover:no-underline">
            Call {phone}
          </a>
        </p>
        <Link
          reloadDocument
          to={contactPath}
          className="inline-flex min-h-11 items-center rounded-full bg-white px-5 font-semibold text-brand-900 hover:bg-brand-50"
        >
          Contact Us
        </Link>
      </div>
    </div>
  );
}

function CompanyCard({ company }: { company: Company }) {
  return (
    <div>
      <p className="text-lg font-bold text-white">{company.name}</p>
      <address className="mt-3 not-italic leading-relaxed">
        {formatAddress(company.street)}
        <br />
        <a href={telHref(company.phone)} className={footerLinkClass}>
          {company.phone}
        </a>
      </address>
      <TrustDetails className="mt-4 space-y-2 text-sm" />
    </div>
  );
}

/** The site's pages and the careers pages, with the labels the site editor gave them. */
function FooterNav() {
  const { menu, careerTestNames } = useSiteChrome();
  const lists = [
    { links: labelled(footerLinks, menu.footer) },
    { links: labelled(careerLinks, { apply: `Careers: ${menu.main.apply}`, ...careerTestNames }), label: "Careers" },
  ];
  return (
    <nav aria-label="Footer" className="grid grid-cols-2 gap-4">
      {lists.map(({ links, label }) => (
        <ul key={label ?? "pages"} aria-label={label}>
          {links.map((link) => (
            <li key={link.id}>
              <Link reloadDocument to={link.path} className={footerLinkClass}>
                {link.name}
              </Link>
            </li>
          ))}
        </ul>
      ))}
    </nav>
  );
}

/** The company's social page and the site's designer. */
function ElsewhereLinks({ company }: { company: Company }) {
  return (
    <div>
      {(["social", "designer"] as const).map((which) => (
        <p key={which}>
          <a href={company[which].href} rel="noopener" className={footerLinkClass}>
            {company[which].label}
          </a>
        </p>
      ))}
    </div>
  );
}

export function SiteFooter() {
  const { company } = useSiteChrome();
  return (
    <footer className="bg-slate-950 text-slate-200">
      <CallToAction phone={company.phone} />
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-3">
        <CompanyCard company={company} />
        <FooterNav />
        <ElsewhereLinks company={company} />
      </div>
      <div className="border-t border-slate-800">
        <div className="mx-auto flex max-w-6xl flex-wrap justify-between gap-2 px-4 py-4 text-sm text-slate-300 sm:px-6">
          <p>
            © {new Date().getFullYear()} {company.name} All rights reserved.
          </p>
          <a href={privacyPath} className={footerLinkClass}>
            Privacy &amp; Terms
          </a>
        </div>
      </div>
    </footer>
  );
}
