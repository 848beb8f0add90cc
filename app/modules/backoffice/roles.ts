import type { Role } from "~db/schema";

/** The roles a user can hold, in the order the page lists them; the page's component and the server both read them. */
export const ROLES: readonly Role[] = ["admin", "manager", "user"];
