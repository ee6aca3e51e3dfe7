import { StaffTable } from "~/components/staff/staff-table";
import type { PersonSummary } from "./peer-review-report";
import { RATING_MEANINGS, RATINGS } from "./ratings";

export const reportPdfPath = (key: string) => `/admin/peer-review-report/pdf?person=${encodeURIComponent(key)}`;

/** Where the report says a person has too few reviews to show anything but the count. */
export const notEnoughReviews = (reviews: number, minResponses: number) =>
  `Not enough reviews yet (${reviews} of ${minResponses}).`;

function PersonReport({ person, minResponses }: { person: PersonSummary; minResponses: number }) {
  const headingId = `person-${person.key.replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id={headingId} className="text-xl font-bold text-brand-900">
        {person.name}
      </h2>
      <p className="mt-1 text-slate-700">
        {person.reviews} {person.reviews === 1 ? "review" : "reviews"}
      </p>
      {person.enough ? (
        <>
          <StaffTable
            caption={`Average rating of each statement for ${person.name}`}
            rows={person.statements.map((row, index) => ({ ...row, number: index + 1 }))}
            rowKey={(row) => row.statement}
            columns={[
              { header: "#", className: "text-center", cell: (row) => row.number },
              { header: "Statement", namesRow: true, className: "font-normal", cell: (row) => row.statement },
              { header: "Average", className: "text-center", cell: (row) => row.average },
              { header: "Answers", className: "text-center", cell: (row) => row.answers },
            ]}
          />
          <p className="mt-4 font-semibold text-slate-900">Overall average: {person.overall}</p>
          <h3 className="mt-2 font-semibold text-slate-900">Spread of all answers</h3>
          <dl className="mt-1 flex flex-wrap gap-x-5 gap-y-1 text-slate-800">
            {RATINGS.map((rating) => (
              <div key={rating} className="flex gap-1">
                <dt>
                  {rating} ({RATING_MEANINGS[rating]}):
                </dt>
                <dd className="font-semibold">{person.spread[rating]}</dd>
              </div>
            ))}
          </dl>
          <a href={reportPdfPath(person.key)} download className="button-secondary mt-4 inline-flex">
            Download {person.name}'s report (PDF)
          </a>
        </>
      ) : (
        <p className="mt-3 text-slate-800">{notEnoughReviews(person.reviews, minResponses)}</p>
      )}
    </section>
  );
}

/**
 * The report across reviewers: a section per person reviewed. Averages show only from `minResponses`
 * reviews up, and nothing on it names who wrote a review.
 */
export function PeerReviewReportView({ people, minResponses }: { people: PersonSummary[]; minResponses: number }) {
  if (people.length === 0) return <p className="mt-8 text-slate-800">No peer reviews have been submitted yet.</p>;
  return (
    <div className="mt-8 grid gap-6">
      {people.map((person) => (
        <PersonReport key={person.key} person={person} minResponses={minResponses} />
      ))}
    </div>
  );
}
