import { Link } from "react-router";
import { CopyLinkButton } from "~/components/copy-link-button";
import type { QuickLink } from "~/forms/feature-manifest";

export function QuickLinkCard({ link }: { link: QuickLink }) {
  return (
    <li className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h3 className="text-lg font-bold text-slate-900">{link.title}</h3>
      <p className="mt-1 flex-1 text-slate-700">{link.description}</p>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Link to={link.path} className="button-primary px-5 py-2" aria-label={`Visit Link: ${link.title}`}>
          Visit Link
        </Link>
        <CopyLinkButton path={link.path} title={link.title} />
      </div>
    </li>
  );
}
