import { Link } from "react-router";
import { CopyLinkButton } from "~/components/copy-link-button";
import type { QuickLink } from "~/forms/feature-manifest";

/**
 * A tool's card; `count`, where the page has one, says what waits there ("3 new leads"), and `children` list it
 * under the card's buttons.
 */
export function QuickLinkCard({
  link,
  count,
  children,
}: {
  link: QuickLink;
  count?: string;
  children?: React.ReactNode;
}) {
  return (
    <li className="flex flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h3 className="text-lg font-bold text-slate-900">
        {link.title}
        {count ? " " : null}
        {count ? (
          <span className="ml-1 rounded-full bg-brand-800 px-2.5 py-0.5 align-middle text-sm font-semibold text-white">
            {count}
          </span>
        ) : null}
      </h3>
      <p className="mt-1 flex-1 text-slate-700">{link.description}</p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Link to={link.path} className="button-primary px-5 py-2" aria-label={`Visit Link: ${link.title}`}>
          Visit Link
        </Link>
        <CopyLinkButton path={link.path} title={link.title} />
      </div>
      {children}
    </li>
  );
}
