import type { FieldMetadata } from "@conform-to/react";
import { RATING_MEANINGS, RATINGS } from "./ratings";

/** The grid every row shares on wide screens, so the choices line up under the column headings. */
export const RATING_GRID = "md:grid md:grid-cols-[minmax(0,1fr)_repeat(6,3.5rem)] md:items-center md:gap-x-2";

/** The column headings above the rows on wide screens; each choice names its own rating to a screen reader. */
export function RatingColumnHeadings() {
  return (
    <div
      aria-hidden="true"
      className={`hidden px-4 pb-2 text-center text-sm font-semibold text-slate-700 ${RATING_GRID}`}
    >
      <span className="text-left">Statement</span>
      {RATINGS.map((rating) => (
        <span key={rating}>{rating}</span>
      ))}
    </div>
  );
}

/**
 * One statement and its six choices. On a phone it is a card with the choices as six large buttons under
 * the statement; from tablet width up, a row of the table. A radio group: Tab reaches it, the arrow keys
 * choose. Without JavaScript the browser's own check asks for an answer (the first radio is required).
 */
export function RatingRow({
  number,
  statement,
  field,
}: {
  number: number;
  statement: string;
  field: FieldMetadata<unknown>;
}) {
  const errorId = `${field.id}-error`;
  const statementId = `${field.id}-statement`;
  const invalid = (field.errors?.length ?? 0) > 0;
  // The statement names the group by aria-labelledby rather than a <legend>, which cannot be a grid cell.
  return (
    <fieldset
      key={field.key}
      id={field.id}
      aria-labelledby={statementId}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid ? errorId : undefined}
      className={`min-w-0 rounded-xl border p-4 ${invalid ? "border-2 border-red-700 bg-red-50" : "border-slate-200 bg-white"}`}
    >
      <div className={RATING_GRID}>
        <p id={statementId} className="font-medium text-slate-900">
          <span className="font-bold">{number}.</span> {statement}
        </p>
        <div className="mt-3 grid grid-cols-6 gap-1.5 md:contents">
          {RATINGS.map((rating, index) => (
            <label key={rating} className="relative block">
              <input
                type="radio"
                name={field.name}
                value={rating}
                required={index === 0}
                defaultChecked={field.initialValue === rating}
                className="peer absolute inset-0 h-full w-full cursor-pointer appearance-none opacity-0"
              />
              <span
                aria-hidden="true"
                className="flex h-12 items-center justify-center rounded-lg border-2 border-slate-300 bg-white text-lg font-semibold text-slate-900 peer-checked:border-brand-800 peer-checked:bg-brand-800 peer-checked:text-white peer-hover:border-brand-700 peer-focus-visible:ring-4 peer-focus-visible:ring-brand-400"
              >
                {rating}
              </span>
              <span className="sr-only">
                {rating} {RATING_MEANINGS[rating]}
              </span>
            </label>
          ))}
        </div>
      </div>
      {invalid ? (
        <p id={errorId} className="mt-2 font-medium text-red-800">
          Please rate this statement.
        </p>
      ) : null}
    </fieldset>
  );
}
