import { Link } from "react-router";
import { PageBanner } from "~/components/page-banner";
import { namedPageMeta } from "~/components/seo";
import { skillsTests } from "~/content/careers";
import { withPhone } from "~/content/phone";
import { ApplicationForm } from "~/features/careers/application-form";
import { type ApplicationActionResult, applicationForm } from "~/features/careers/definition";
import { submitApplication } from "~/features/careers/submit-application.server";
import { formRoute } from "~/forms/form-route";
import { siteContentOf } from "~/services/site-content/site-content-cache.server";
import type { Route } from "./+types/apply";

export const loader = ({ context }: Route.LoaderArgs) => {
  const content = siteContentOf(context);
  const { applicationNextSteps, assessmentNextSteps: _otherPage, ...careers } = content.careers;
  return { careers, applicationNextStep: withPhone(applicationNextSteps, content), page: content.pages.apply };
};

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  loaderData
    ? namedPageMeta(matches, { ...loaderData.page, path: "/apply", imageName: loaderData.careers.bannerImage.name })
    : [];

export const action = ({ request, context }: Route.ActionArgs) => submitApplication(request, context);

export const { clientAction, shouldRevalidate } = formRoute<ApplicationActionResult>(applicationForm);

export default function Apply({ loaderData: { careers, applicationNextStep } }: Route.ComponentProps) {
  return (
    <>
      <PageBanner image={careers.bannerImage}>
        <p className="font-semibold tracking-wide text-brand-400 uppercase">{careers.banner.eyebrow}</p>
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-white sm:text-5xl">{careers.banner.heading}</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-100">{careers.banner.text}</p>
      </PageBanner>
      <div className="bg-slate-50">
        <div className="mx-auto max-w-4xl px-4 pt-2 pb-16 sm:px-6">
          <section
            aria-labelledby="skills-tests-heading"
            className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-slate-200"
          >
            <h2 id="skills-tests-heading" className="text-2xl font-bold text-slate-900">
              {careers.skillsTests.heading}
            </h2>
            <p className="mt-2 text-slate-700">{careers.skillsTests.text}</p>
            <ul className="mt-4 grid gap-4 sm:grid-cols-2">
              {skillsTests.tests.map(({ id, path }) => (
                <li key={id}>
                  <Link to={path} className="text-lg font-semibold text-brand-800 underline underline-offset-4">
                    {careers.tests[id].name}
                  </Link>
                  <p className="mt-1 text-slate-700">{careers.tests[id].description}</p>
                </li>
              ))}
            </ul>
          </section>
          <p className="mt-8 text-slate-700">Every field is required unless it says optional.</p>
          <ApplicationForm nextStep={applicationNextStep} />
        </div>
      </div>
    </>
  );
}
