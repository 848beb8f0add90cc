import { createUserSession } from "~/modules/auth/session.server";
import type { DB } from "~/modules/db/db.server";
import { browserFetch, type AppServer } from "../../support/app-server";

import { SECRETS } from "../../support/app";

export { SECRETS };

export type Browser = ReturnType<typeof browserFetch>;

/** A browser that passed the back-office password gate (a manager-level session). */
export async function gatePassed(app: AppServer): Promise<Browser> {
  const browser = browserFetch(app);
  const response = await browser.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: "/backoffice" } });
  if (response.status !== 302) throw new Error(`gate refused the password: ${response.status}`);
  return browser;
}

/** A browser signed in as a user with the given roles (created if missing). */
export async function signedInAs(app: AppServer, db: DB, email: string, roles: Array<"admin" | "manager" | "user"> = []): Promise<Browser> {
  const user =
    (await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()) ??
    (await db.insertInto("users").values({ email }).returning("id").executeTakeFirstOrThrow());
  for (const role of roles) {
    await db.insertInto("user_roles").values({ user_id: user.id, role }).onConflict((oc) => oc.columns(["user_id", "role"]).doNothing()).execute();
  }
  const browser = browserFetch(app);
  browser.jar.set("__session", (await createUserSession(db, user.id)).split(";")[0]!.split("=").slice(1).join("="));
  return browser;
}

/** The rendered toast of a page, as [title, description]. */
export function toastOf(html: string): string[] | null {
  const match = html.match(/<div class="toast toast-\w+(?: [\w-]+)*" role="\w+"><strong>([^<]*)<\/strong>(?:<p>([^<]*)<\/p>)?/);
  return match ? match.slice(1).filter((part) => part !== undefined) : null;
}

/** Follows one redirect (POST-redirect-GET) and returns the page's HTML. */
export async function follow(browser: Browser, response: Response): Promise<string> {
  const location = response.headers.get("Location");
  if (!location) throw new Error(`expected a redirect, got ${response.status}: ${await response.text()}`);
  return (await browser.request(location)).text();
}

/**
 * The page as rendered, without its scripts: the root loader ships every interface text to the
 * browser in a script, so a text found there proves nothing about what the page shows.
 */
export function rendered(html: string): string {
  return decode(html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ""));
}

/** HTML text with entities of the kinds React writes decoded. */
export function decode(html: string): string {
  return html.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The address of a list pager's link (`rel="next"` or `rel="prev"`), as the page writes it, or null. */
export function pagerLink(html: string, rel: "next" | "prev"): string | null {
  const link = new RegExp(`<a [^>]*href="([^"]+)"[^>]*rel="${rel}"|<a [^>]*rel="${rel}"[^>]*href="([^"]+)"`).exec(html);
  return link?.slice(1).find(Boolean)?.replace(/&amp;/g, "&") ?? null;
}
