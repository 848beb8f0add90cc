import { type Cookie, createCookie } from "@remix-run/node";
import { getConfig } from "~/modules/config/config.server";
import { COOKIE_LIST, type CookieDefinition, type CookieKey } from "./cookie-list";

/**
 * Each concern its own cookie (STYLE §5): HttpOnly, SameSite=Lax, Secure in strict mode,
 * signed with SESSION_SECRET. Created lazily so configuration is read at request time; names and
 * lifetimes come from `COOKIE_LIST`, the list the privacy notice is checked against.
 */
function cookie({ name, maxAge, path }: CookieDefinition) {
  const config = getConfig();
  return createCookie(name, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.strict,
    path: path ?? "/",
    secrets: [config.secrets.SESSION_SECRET],
    maxAge,
  });
}

export const cookies = Object.fromEntries(Object.entries(COOKIE_LIST).map(([key, definition]) => [key, () => cookie(definition)])) as Record<
  CookieKey,
  () => Cookie
>;
