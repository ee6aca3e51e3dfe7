import { useEffect, useId, useRef } from "react";
import { Form, useActionData, useNavigation } from "react-router";
import type { DirectoryActionResult } from "./directory-schema";

type Entry = {
  id: number;
  name: string;
  email: string;
  mobile: string;
  isActive: boolean;
  mobileUnreadable: boolean;
};

const inputClass =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-700 focus:outline-3 focus:outline-brand-600/40 aria-[invalid=true]:border-2 aria-[invalid=true]:border-red-700 aria-[invalid=true]:bg-red-50";

function useOwnResult(intents: readonly string[], entryId?: number): DirectoryActionResult | undefined {
  const result = useActionData<DirectoryActionResult>();
  return result && intents.includes(result.intent) && result.entryId === entryId ? result : undefined;
}

function Outcome({ result }: { result: DirectoryActionResult | undefined }) {
  return (
    <div aria-live="polite">
      {result ? (
        <p
          role={result.status === "error" ? "alert" : "status"}
          className={result.status === "error" ? "font-medium text-red-800" : "font-medium text-brand-900"}
        >
          {result.message}
        </p>
      ) : null}
    </div>
  );
}

function DetailField({
  name,
  label,
  type,
  autoComplete,
  defaultValue,
  problem,
  note,
}: {
  name: "name" | "email" | "mobile";
  label: string;
  type: "text" | "email" | "tel";
  autoComplete: string;
  defaultValue?: string;
  problem?: string;
  note?: string;
}) {
  const id = useId();
  const describedBy = [problem ? `${id}-error` : undefined, note ? `${id}-note` : undefined].filter(Boolean).join(" ");
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-slate-900">
        {label}
        {name === "name" ? null : <span className="font-normal text-slate-600"> (optional)</span>}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        required={name === "name"}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={inputClass}
      />
      {note ? (
        <p id={`${id}-note`} className="mt-1 text-sm font-medium text-amber-900">
          {note}
        </p>
      ) : null}
      {problem ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-800">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

function BusyButton({
  intent,
  label,
  busyLabel,
  secondary,
}: {
  intent: string;
  label: string;
  busyLabel: string;
  secondary?: boolean;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      disabled={busy}
      className={`${secondary ? "button-secondary" : "button-primary"} px-5 py-2 disabled:cursor-wait disabled:opacity-70`}
    >
      {busy ? busyLabel : label}
    </button>
  );
}

function AddEntryForm() {
  const result = useOwnResult(["add"]);
  const problems = result?.problems ?? {};
  const formRef = useRef<HTMLFormElement>(null);
  // Emptied for the next person after an addition; after a refusal the answers stay to be corrected.
  useEffect(() => {
    if (result?.status === "success") formRef.current?.reset();
  }, [result]);
  return (
    <section aria-labelledby="add-entry-heading" className="mt-8 rounded-xl border border-slate-300 p-4 sm:p-6">
      <h2 id="add-entry-heading" className="text-xl font-bold text-brand-900">
        Add a person
      </h2>
      <Form method="post" ref={formRef} className="mt-4 space-y-4">
        <div className="grid gap-4 sm:grid-cols-3">
          <DetailField name="name" label="Name" type="text" autoComplete="off" problem={problems.name} />
          <DetailField name="email" label="Email" type="email" autoComplete="off" problem={problems.email} />
          <DetailField name="mobile" label="Mobile number" type="tel" autoComplete="off" problem={problems.mobile} />
        </div>
        <BusyButton intent="add" label="Add" busyLabel="Adding..." />
        <Outcome result={result} />
      </Form>
    </section>
  );
}

function EntryCard({ entry }: { entry: Entry }) {
  const result = useOwnResult(["save", "deactivate", "reactivate"], entry.id);
  const problems = result?.problems ?? {};
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
        <input type="hidden" name="entryId" value={entry.id} />
        <div className="grid gap-4 sm:grid-cols-3">
          <DetailField
            name="name"
            label="Name"
            type="text"
            autoComplete="off"
            defaultValue={entry.name}
            problem={problems.name}
          />
          <DetailField
            name="email"
            label="Email"
            type="email"
            autoComplete="off"
            defaultValue={entry.email}
            problem={problems.email}
          />
          <DetailField
            name="mobile"
            label="Mobile number"
            type="tel"
            autoComplete="off"
            defaultValue={entry.mobile}
            problem={problems.mobile}
            note={entry.mobileUnreadable ? "Not a number we can text: no texts go to it." : undefined}
          />
        </div>
        <div className="flex flex-wrap gap-3">
          <BusyButton intent="save" label="Save" busyLabel="Saving..." />
          {entry.isActive ? (
            <BusyButton intent="deactivate" label="Deactivate" busyLabel="Deactivating..." secondary />
          ) : (
            <BusyButton intent="reactivate" label="Reactivate" busyLabel="Reactivating..." secondary />
          )}
        </div>
        <Outcome result={result} />
      </Form>
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
      <section aria-labelledby="directory-heading" className="mt-10">
        <h2 id="directory-heading" className="text-xl font-bold text-brand-900">
          People
        </h2>
        {entries.length === 0 ? (
          <p className="mt-2 text-slate-700">Nobody yet. Add the people who should get team messages.</p>
        ) : (
          <ul className="mt-4 space-y-4">
            {entries.map((entry) => (
              <EntryCard key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
