import { company, officeHours } from "~/content/company";

/**
 * What a contractor's customers look for before they call: the license, insurance, office hours and the
 * number for emergencies after hours. In the footer of every public page and on the about page.
 */
export function TrustDetails({ className }: { className?: string }) {
  return (
    <dl className={className}>
      <div>
        <dt className="font-semibold">{company.insurance}</dt>
        <dd>{company.license.label}</dd>
      </div>
      <div>
        <dt className="font-semibold">Office hours</dt>
        {officeHours.map((hours) => (
          <dd key={hours}>{hours}</dd>
        ))}
      </div>
      <div>
        <dt className="font-semibold">After hours and emergencies</dt>
        <dd>
          <a
            href={company.afterHoursPhone.href}
            className="inline-flex min-h-11 items-center underline underline-offset-4"
          >
            {company.afterHoursPhone.display}
          </a>
        </dd>
      </div>
    </dl>
  );
}
