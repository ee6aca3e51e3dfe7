import { useId, useState } from "react";
import { FieldError } from "~/components/forms/field-error";
import { choiceRowClass, inputClass } from "~/components/forms/field-look";
import { useHydrated } from "~/components/use-hydrated";
import { foldText } from "~/forms/fold-text";
import { reachabilityOf, type TechnicianOption } from "./technician";

const PLACEHOLDER = "Select technicians...";

type Selection = { selected: ReadonlySet<number>; onChange: (selected: Set<number>) => void };

/**
 * The search box over the list, and Select All (of those it shows) and Clear All. Kept in its place, unseen, until
 * JavaScript runs: showing it then would push the list down. Where scripts never run (scripting: none) it takes no
 * room at all.
 */
function SearchBar({
  listId,
  search,
  onSearch,
  shown,
  selected,
  onChange,
}: Selection & { listId: string; search: string; onSearch: (search: string) => void; shown: TechnicianOption[] }) {
  const hydrated = useHydrated();
  return (
    <div className={`mt-1 flex flex-wrap gap-2 noscript:hidden ${hydrated ? "" : "invisible"}`}>
      <input
        type="search"
        aria-label="Search technicians by name"
        aria-controls={listId}
        placeholder={PLACEHOLDER}
        value={search}
        onChange={(event) => onSearch(event.target.value)}
        autoComplete="off"
        className={`${inputClass} placeholder:text-slate-600 disabled:bg-slate-100`}
      />
      <button
        type="button"
        className="button-secondary px-4 py-2 text-sm"
        disabled={shown.length === 0}
        onClick={() => onChange(new Set([...selected, ...shown.map((technician) => technician.id)]))}
      >
        Select All
      </button>
      <button
        type="button"
        className="button-secondary px-4 py-2 text-sm"
        disabled={selected.size === 0}
        onClick={() => onChange(new Set())}
      >
        Clear All
      </button>
    </div>
  );
}

/** Every technician as a checkbox with how they can be reached; those the search does not match are hidden. */
function TechnicianList({
  listId,
  technicians,
  matches,
  selected,
  onChange,
}: Selection & {
  listId: string;
  technicians: readonly TechnicianOption[];
  matches: (technician: TechnicianOption) => boolean;
}) {
  const toggle = (id: number, checked: boolean) => {
    const next = new Set(selected);
    if (checked) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  return (
    <ul id={listId} className="mt-2 max-h-72 overflow-y-auto rounded-lg border border-slate-300 bg-white">
      {technicians.map((technician) => (
        <li key={technician.id} hidden={!matches(technician)} className="border-b border-slate-200 last:border-b-0">
          <label className={`${choiceRowClass} px-3 py-2 hover:bg-brand-50`}>
            <input
              type="checkbox"
              name="recipients"
              value={technician.id}
              checked={selected.has(technician.id)}
              onChange={(event) => toggle(technician.id, event.target.checked)}
              className="size-5 accent-brand-700"
            />
            <span className="text-slate-900">{technician.name}</span>
            <span className="ml-auto text-sm text-slate-600">{reachabilityOf(technician)}</span>
          </label>
        </li>
      ))}
      {technicians.some(matches) ? null : (
        <li className="px-3 py-2 text-slate-700">
          {technicians.length === 0 ? "No technicians to choose from." : "No technician matches that name."}
        </li>
      )}
    </ul>
  );
}

/**
 * The searchable multi-select of technicians: a search box over a list of checkboxes. Native checkboxes in a
 * fieldset are what a keyboard and a screen reader already know (Tab, Space, the legend read as the group);
 * the search only hides the ones that do not match, so a chosen technician stays chosen, and sent, while hidden.
 * The search and Select All / Clear All need JavaScript, so they show once it runs; the list works without.
 */
export function TechnicianPicker({
  technicians,
  selected,
  onChange,
  error,
  loadFailed,
}: Selection & {
  technicians: readonly TechnicianOption[];
  error?: string;
  loadFailed?: boolean;
}) {
  const id = useId();
  const [search, setSearch] = useState("");
  const query = foldText(search.trim());
  const matches = (technician: TechnicianOption) => foldText(technician.name).includes(query);
  const describedBy = [`${id}-count`, error ? `${id}-error` : undefined].filter(Boolean).join(" ");
  return (
    <fieldset aria-describedby={describedBy}>
      <legend className="font-medium text-slate-900">Technicians</legend>
      <SearchBar
        listId={`${id}-list`}
        search={search}
        onSearch={setSearch}
        shown={technicians.filter(matches)}
        selected={selected}
        onChange={onChange}
      />
      <p id={`${id}-count`} className="mt-2 text-sm text-slate-700">
        {`${selected.size} of ${technicians.length} selected`}
      </p>
      {loadFailed ? (
        <p className="mt-1 text-sm font-medium text-red-800">
          The technician list could not be loaded just now. Please reload the page in a moment.
        </p>
      ) : null}
      <TechnicianList
        listId={`${id}-list`}
        technicians={technicians}
        matches={matches}
        selected={selected}
        onChange={onChange}
      />
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}
