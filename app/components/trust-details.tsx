import { officeHoursLines } from "~/content/company";
import { telHref } from "~/content/phone";
import { useSiteChrome } from "./site-chrome";

/**
 * What a contractor's customers look for before they call: the license, insurance, office hours and the
 * number for emergencies after hours. In the footer of every public page and on the about page.
 */
export function TrustDetails({ className }: { className?: string }) {
  const { company } = useSiteChrome();
  return (
    <dl className={className}>
      <div>
        <dt className="font-semibold">{company.insurance}</dt>
        <dd>{company.license.label}</dd>
      </div>
      <div>
        <dt className="font-semibold">Office hours</dt>
        {officeHoursLines(company.hours).map((hours) => (
          <dd key={hours}>{hours}</dd>
        ))}
      </div>
      <div>
        <dt className="font-semibold">After hours and emergencies</dt>
        <dd>
          <a
            href={telHref(company.afterHoursPhone)}
            className="inline-flex min-h-11 items-center underline underline-offset-4"
          >
            {company.afterHoursPhone}
          </a>
        </dd>
      </div>
    </dl>
  );
}
