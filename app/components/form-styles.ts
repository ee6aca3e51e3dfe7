/** The look of every text input, select and textarea, public and staff alike. */
export const inputClass =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-700 focus:outline-3 focus:outline-brand-600/40 aria-[invalid=true]:border-red-700";
