import { publicPageMeta } from "~/components/seo";
import { siteUrlFromMatches } from "~/components/site-url";
import { company } from "~/content/company";
import { ApplicationForm } from "~/features/careers/application-form";
import { submitApplication } from "~/features/careers/submit-application.server";
import type { Route } from "./+types/apply";

export const meta: Route.MetaFunction = ({ matches }) =>
  publicPageMeta({
    title: `Careers: Apply to Join Our Team | ${company.name}`,
    description:
      "Apply for a job as a helper, electrician, lead electrician, project or field manager, or office admin with our commercial electrical team in South Carolina.",
    path: "/apply",
    siteUrl: siteUrlFromMatches(matches),
  });

export function action({ request, context }: Route.ActionArgs) {
  return submitApplication(request, context);
}

export { applicationClientAction as clientAction } from "~/features/careers/application-actions";

export default function Apply() {
  return (
    <div className="bg-slate-50">
      <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6 sm:py-16">
        <p className="font-semibold tracking-wide text-brand-800 uppercase">Career Application</p>
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">Join Our Team</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-700">
          We are growing and looking for people who take pride in safe, quality work. Tell us about yourself and we will
          be in touch. Every field is required unless it says optional.
        </p>
        <ApplicationForm />
      </div>
    </div>
  );
}
