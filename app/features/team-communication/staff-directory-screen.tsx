import { useEffect, useRef } from "react";
import { Form, useActionData } from "react-router";
import { Alert, AlertRegion } from "~/components/forms/alert";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import { StaffSection } from "~/components/staff/staff-section";
import type { DirectoryActionResult } from "./directory-schema";

type Entry = {
  id: number;
  name: string;
  email: string;
  mobile: string;
  isActive: boolean;
  mobileUnreadable: boolean;
};

/** The answer of this form: its intent and its entry (none for the add form). */
function useOwnResult(intents: readonly string[], entryId?: number): DirectoryActionResult | undefined {
  const result = useActionData<DirectoryActionResult>();
  return result && intents.includes(result.intent) && result.entryId === entryId ? result : undefined;
}

function Outcome({ result }: { result: DirectoryActionResult | undefined }) {
  return <AlertRegion>{result ? <Alert tone={result.status}>{result.message}</Alert> : null}</AlertRegion>;
}

const errorsOf = (problem: string | undefined) => (problem ? [problem] : undefined);

const DETAIL_FIELDS = [
  { name: "name", label: "Name", kind: "text", required: true },
  { name: "email", label: "Email", kind: "email", optional: true },
  { name: "mobile", label: "Mobile number", kind: "tel", optional: true },
] as const;

/** Name, email and mobile number of one person, as typed into a refused form, or as stored. */
function DetailFields({ entry, result }: { entry?: Entry; result: DirectoryActionResult | undefined }) {
  const problems = result?.problems ?? {};
  const shown = result?.values ?? entry;
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      {DETAIL_FIELDS.map(({ name, ...field }) => (
        <TextField
          key={name}
          {...field}
          name={name}
          autoComplete="off"
          defaultValue={shown?.[name]}
          hint={
            name === "mobile" && entry?.mobileUnreadable ? "Not a number we can text: no texts go to it." : undefined
          }
          errors={errorsOf(problems[name])}
        />
      ))}
    </div>
  );
}

function AddEntryForm() {
  const result = useOwnResult(["add"]);
  const formRef = useRef<HTMLFormElement>(null);
  // Emptied for the next person after an addition; after a refusal the answers stay to be corrected.
  useEffect(() => {
    if (result?.status === "success") formRef.current?.reset();
  }, [result]);
  return (
    <StaffSection
      headingId="add-entry-heading"
      title="Add a person"
      className="mt-8 rounded-xl border border-slate-300 p-4 sm:p-6"
    >
      <Form method="post" ref={formRef} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="add" />
        <DetailFields result={result} />
        <SubmitButton busy={usePending("add")} busyLabel="Adding...">
          Add
        </SubmitButton>
        <Outcome result={result} />
      </Form>
    </StaffSection>
  );
}

function EntryCard({ entry }: { entry: Entry }) {
  const result = useOwnResult(["save", "deactivate", "reactivate"], entry.id);
  const switchIntent = entry.isActive ? "deactivate" : "reactivate";
  const switchPending = usePending(switchIntent);
  const headingId = `directory-entry-${entry.id}`;
  return (
    <li
      aria-labelledby={headingId}
      className={`rounded-xl border p-4 ${entry.isActive ? "border-slate-300" : "border-slate-200 bg-slate-50"}`}
    >
      <h3 id={headingId} className="font-bold text-slate-900">
        {entry.name}
        {entry.isActive ? null : <span className="ml-2 font-normal text-slate-600">(deactivated)</span>}
      </h3>
      <Form method="post" className="mt-3 space-y-4">
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="entryId" value={entry.id} />
        <DetailFields entry={entry} result={result} />
        <SubmitButton busy={usePending("save")} busyLabel="Saving...">
          Save
        </SubmitButton>
      </Form>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value={switchIntent} />
        <input type="hidden" name="entryId" value={entry.id} />
        <button type="submit" disabled={switchPending} className="button-secondary px-5 py-2 disabled:cursor-wait">
          {entry.isActive ? "Deactivate" : "Reactivate"}
        </button>
      </Form>
      <div className="mt-3">
        <Outcome result={result} />
      </div>
    </li>
  );
}

/** The staff directory: the people Team Communication writes to when ServiceTitan is not configured. */
export function StaffDirectoryScreen({
  entries,
  usesServiceTitan,
}: {
  entries: readonly Entry[];
  usesServiceTitan: boolean;
}) {
  return (
    <>
      {usesServiceTitan ? (
        <p className="mt-4 rounded-lg border border-amber-700 bg-amber-50 px-4 py-3 text-amber-950">
          ServiceTitan is configured, so Team Communication lists its technicians; this directory is not used while it
          is.
        </p>
      ) : null}
      <AddEntryForm />
      <StaffSection headingId="directory-heading" title="People" className="mt-10">
        {entries.length === 0 ? (
          <p className="mt-2 text-slate-700">Nobody yet. Add the people who should get team messages.</p>
        ) : (
          <ul className="mt-4 space-y-4">
            {entries.map((entry) => (
              <EntryCard key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
      </StaffSection>
    </>
  );
}
