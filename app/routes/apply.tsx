import { Link } from "react-router";
import { PageBanner } from "~/components/page-banner";
import { publicPageMeta } from "~/components/seo";
import { siteUrlFromMatches } from "~/components/site-url";
import { skillsTests } from "~/content/careers";
import { company } from "~/content/company";
import { banners } from "~/content/images";
import { ApplicationForm } from "~/features/careers/application-form";
import { type ApplicationActionResult, applicationForm } from "~/features/careers/definition";
import { submitApplication } from "~/features/careers/submit-application.server";
import { formRoute } from "~/forms/form-route";
import type { Route } from "./+types/apply";

export const meta: Route.MetaFunction = ({ matches }) =>
  publicPageMeta({
    title: `Careers: Apply to Join Our Team | ${company.name}`,
    description:
      "Apply for a job as a helper, electrician, lead electrician, project or field manager, or office admin with our commercial electrical team in South Carolina.",
    path: "/apply",
    siteUrl: siteUrlFromMatches(matches),
    imageName: banners.about.name,
  });

export const action = ({ request, context }: Route.ActionArgs) => submitApplication(request, context);

export const { clientAction, shouldRevalidate } = formRoute<ApplicationActionResult>(applicationForm);

export default function Apply() {
  return (
    <>
      <PageBanner image={banners.about}>
        <p className="font-semibold tracking-wide text-brand-400 uppercase">Career Application</p>
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-white sm:text-5xl">Join Our Team</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-100">
          We are growing and looking for people who take pride in safe, quality work. Tell us about yourself and we will
          be in touch.
        </p>
      </PageBanner>
      <div className="bg-slate-50">
        <div className="mx-auto max-w-4xl px-4 pt-2 pb-16 sm:px-6">
          <section
            aria-labelledby="skills-tests-heading"
            className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-slate-200"
          >
            <h2 id="skills-tests-heading" className="text-2xl font-bold text-slate-900">
              {skillsTests.heading}
            </h2>
            <p className="mt-2 text-slate-700">{skillsTests.text}</p>
            <ul className="mt-4 grid gap-4 sm:grid-cols-2">
              {skillsTests.tests.map((test) => (
                <li key={test.id}>
                  <Link to={test.path} className="text-lg font-semibold text-brand-800 underline underline-offset-4">
                    {test.name}
                  </Link>
                  <p className="mt-1 text-slate-700">{test.description}</p>
                </li>
              ))}
            </ul>
          </section>
          <p className="mt-8 text-slate-700">Every field is required unless it says optional.</p>
          <ApplicationForm />
        </div>
      </div>
    </>
  );
}
