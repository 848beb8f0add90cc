/** Clients shown on one page of the list. */
export const CLIENTS_PAGE_SIZE = 50;

/** Query string of the list without the open dialog (where "close" and "saved" lead). */
export function listSearch(search: string) {
  const next = new URLSearchParams(search);
  next.delete("client");
  const rest = next.toString();
  return rest ? `?${rest}` : "";
}
