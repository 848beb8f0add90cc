/** Query string of the list without the open dialog (where "close" and "saved" lead). */
export function listSearch(params: URLSearchParams) {
  const next = new URLSearchParams(params);
  next.delete("client");
  const search = next.toString();
  return search ? `?${search}` : "";
}
