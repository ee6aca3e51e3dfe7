/**
 * A query string with its values left out (`?q&status`): a search, a filter or a GET form's answers are what
 * people typed, and neither the log nor a stored record is the place for them. The names say what was asked.
 */
export function queryNamesOnly(search: string): string {
  const query = search.startsWith("?") ? search.slice(1) : search;
  if (query === "") return "";
  const names = query
    .split("&")
    .filter(Boolean)
    .map((pair) => pair.split("=")[0]);
  return `?${names.join("&")}`;
}
