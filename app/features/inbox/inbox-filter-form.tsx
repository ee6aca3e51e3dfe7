import { useState } from "react";
import { Form, Link, useSubmit } from "react-router";
import { touchLinkClass } from "~/components/forms/field-look";
import { SelectField } from "~/components/forms/select-field";
import { TextField } from "~/components/forms/text-field";
import type { SubmissionTypeChoice } from "~/features/submission-types.server";
import { DELIVERY_STATE_LABELS, DELIVERY_STATES } from "./delivery-state";
import { SEARCH_MIN_LENGTH, SPAM_CHOICES } from "./inbox-filters";

type FilterValues = Record<string, string | undefined>;

const spamOptions = Object.entries(SPAM_CHOICES).map(([value, label]) => ({ value, label }));
const deliveryOptions = DELIVERY_STATES.map((state) => ({ value: state, label: DELIVERY_STATE_LABELS[state] }));

const hasNarrowingFilter = (values: FilterValues) =>
  ["type", "status", "delivery", "from", "to"].some((key) => values[key]) ||
  (values.spam !== undefined && values.spam !== "no");

/**
 * Only the filters that are set. Without JavaScript the browser sends every field, empty ones too; with it the URL
 * keeps only these, which makes it shorter to read and to share.
 */
function setFilters(form: HTMLFormElement) {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form)) {
    if (typeof value === "string" && value.trim() !== "" && !(key === "spam" && value === "no")) {
      params.set(key, value);
    }
  }
  return params;
}

/**
 * Type, status, spam, delivery and dates, folded away unless one is in use, so on a phone the list is not a long
 * scroll below the form. The status list follows the chosen type.
 */
function MoreFilters({ values, types }: { values: FilterValues; types: readonly SubmissionTypeChoice[] }) {
  const [type, setType] = useState(values.type ?? "");
  const typeOptions = types.map((choice) => ({ value: choice.type, label: choice.label }));
  const statuses = types.find((choice) => choice.type === type)?.statuses ?? types.flatMap((choice) => choice.statuses);
  const statusOptions = [...new Set(statuses)].map((status) => ({ value: status, label: status }));
  return (
    <details open={hasNarrowingFilter(values)} className="mt-2">
      <summary className="cursor-pointer py-2.5 font-medium text-brand-900">More filters</summary>
      <div className="mt-2 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <SelectField
          label="Type"
          name="type"
          emptyOption="All types"
          options={typeOptions}
          value={type}
          onChange={(event) => setType(event.target.value)}
        />
        <SelectField
          key={type}
          label="Status"
          name="status"
          emptyOption="All statuses"
          options={statusOptions}
          defaultValue={type === (values.type ?? "") ? values.status : ""}
        />
        <SelectField label="Spam" name="spam" options={spamOptions} defaultValue={values.spam ?? "no"} />
        <SelectField
          label="Delivery"
          name="delivery"
          emptyOption="Any delivery state"
          options={deliveryOptions}
          defaultValue={values.delivery}
        />
        <TextField label="From" name="from" kind="date" defaultValue={values.from} />
        <TextField label="To" name="to" kind="date" defaultValue={values.to} />
      </div>
    </details>
  );
}

/**
 * The filters, as a GET form: they land in the URL, so a filtered inbox can be bookmarked and sent, and the
 * form works without JavaScript. With it, the status list follows the chosen type at once.
 */
export function InboxFilterForm({
  values,
  types,
}: {
  values: FilterValues;
  /** The types the user may read: a staff user does not see the peer review's. */
  types: readonly SubmissionTypeChoice[];
}) {
  const submit = useSubmit();
  return (
    <Form
      method="get"
      action="/admin/inbox#results"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(setFilters(event.currentTarget), { method: "get" });
      }}
      role="search"
      aria-label="Filter the inbox"
      className="mt-4 rounded-2xl bg-slate-50 p-3"
    >
      <TextField
        label="Search"
        name="q"
        kind="search"
        defaultValue={values.q}
        hint={`Name, email, phone or reference; at least ${SEARCH_MIN_LENGTH} characters`}
        minLength={SEARCH_MIN_LENGTH}
      />
      <MoreFilters values={values} types={types} />
      <div className="mt-3 flex flex-wrap items-center gap-4">
        <button type="submit" className="button-primary px-5">
          Apply filters
        </button>
        <Link to="/admin/inbox" className={touchLinkClass}>
          Clear filters
        </Link>
      </div>
    </Form>
  );
}
