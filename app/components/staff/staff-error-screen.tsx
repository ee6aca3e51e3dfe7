import { Link } from "react-router";
import { publishedCompanyName } from "~/content/published-company";
import { errorScreenText } from "../error-screen";

/** A 404, 403 or failure inside the staff area, said inside the staff frame; never the error's own text. */
export function StaffErrorScreen({ error }: { error: unknown }) {
  const screen = errorScreenText(error, "Something went wrong on our side. Please try again in a moment.");
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 text-center sm:px-6">
      <title>{`${screen.title} | ${publishedCompanyName()}`}</title>
      <meta name="robots" content="noindex, nofollow" />
      <p className="text-sm font-semibold tracking-widest text-brand-700 uppercase">{screen.eyebrow}</p>
      <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-slate-900">{screen.heading}</h1>
      <p className="mt-4 text-lg text-slate-600">{screen.text}</p>
      <Link to="/admin/quick-links" className="button-primary mt-8">
        Back to Quick Links
      </Link>
    </section>
  );
}
