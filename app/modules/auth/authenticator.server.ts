import type { SessionStorage } from "@remix-run/node";
import { Authenticator, AuthorizationError, type AuthenticateOptions, Strategy } from "remix-auth";
import { EmailLinkStrategy } from "remix-auth-email-link";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { remixI18n } from "~/modules/i18n/i18n.server";
import { isLanguage } from "~/modules/i18n/languages";
import { createMailer, type Mailer } from "~/modules/mail/mailer.server";
import type { Market } from "~/modules/market/market";
import { publicOrigin } from "~/modules/market/market.server";
import { normalizeEmail } from "~/modules/validation/email";
import { codeCarriedSchema, linkMailSchema } from "./forms";
import { getSessionStorage, startUserSession, type SessionData, type SessionFlashData } from "./session.server";
import { consumeCode, consumeLink, isLinkUsable, LINK_MINUTES, recordSignInLink, signInCode, type SignedIn, signInLimitWait } from "./sign-in.server";
import { hmac, openPassphraseToken, randomToken, sealPassphraseToken } from "./tokens.server";
import { logger } from "~/modules/log/logger.server";

/**
 * Sign-in: one remix-auth `Authenticator` over the database session storage, with two strategies
 * (docs/decisions/027-sign-in-on-remix-auth.md):
 * - "email-link": remix-auth-email-link builds, encrypts, dates and checks the link;
 * - "code": the 6-digit code from the same mail, typed on another device.
 * Our layer on top adds what the packages do not do: the link's single use and its expiry decided
 * by a row in PostgreSQL, a confirmation page between opening a link and signing in, origins from
 * configuration, rate limits, and a new session id at every sign-in.
 * A new way to sign in is one more strategy in `buildAuthenticator`.
 */
export const CALLBACK_PATH = "/auth/verify";
const LINK_PARAM = "token";

type AuthStorage = SessionStorage<SessionData, SessionFlashData>;

let mailer: Mailer | undefined;
const getMailer = () => (mailer ??= createMailer(getConfig()));

/** The link's encryption key: the session secret, put to one use only. */
const linkSecret = () => hmac(getConfig().secrets.SESSION_SECRET, "sign-in-link");

/**
 * The 6-digit code, as a strategy of its own in the same authenticator. It is handed the address
 * and the code the sign-in page's schema checked (`signInWithCode`), and checks them no more.
 */
class SignInCodeStrategy extends Strategy<SignedIn, { email: string; code: string }> {
  name = "code";

  async authenticate(request: Request, sessionStorage: SessionStorage, options: AuthenticateOptions): Promise<SignedIn> {
    const carried = codeCarriedSchema.safeParse(Object.fromEntries(await request.formData()));
    const user = carried.success ? await this.verify(carried.data).catch(() => null) : null;
    if (!user) return this.failure("auth.errors.badCode", request, sessionStorage, options);
    return this.success(user, request, sessionStorage, options);
  }
}

/**
 * remix-auth-email-link (DESIGN's sign-in package) with its link cipher on Node's crypto: the same
 * OpenSSL passphrase format its crypto-js wrote, so links already mailed still open (ADR 027). Its
 * `encrypt` and `decrypt` are private to TypeScript, so they are replaced on the instance. crypto-js,
 * which its authors discontinued, is not installed: package.json's `overrides` put a stand-in in its
 * place (vendor/crypto-js-replaced) that refuses to be used.
 */
function onNodeCrypto<User>(strategy: EmailLinkStrategy<User>): EmailLinkStrategy<User> {
  return Object.assign(strategy, {
    encrypt: async (value: string) => sealPassphraseToken(value, linkSecret()),
    decrypt: async (value: string) => openPassphraseToken(value, linkSecret()) ?? "",
  });
}

function buildAuthenticator(storage: AuthStorage) {
  const authenticator = new Authenticator<SignedIn>(storage as SessionStorage, { sessionKey: "user", sessionErrorKey: "auth:error" });
  authenticator.use(
    onNodeCrypto(new EmailLinkStrategy<SignedIn>(
      {
        secret: linkSecret(),
        callbackURL: CALLBACK_PATH,
        magicLinkSearchParam: LINK_PARAM,
        linkExpirationTime: LINK_MINUTES * 60_000,
        // A link opened in another browser or on another device signs in (DESIGN §4.23): the
        // database row, not the asking browser's session, decides whether a link is good.
        validateSessionMagicLink: false,
        // The address was checked once, by the form that asked (auth/forms.ts), or is an order's
        // address on file (uploads.continue): the strategy checks it no more.
        verifyEmailAddress: async () => {},
        sendEmail: async ({ emailAddress, magicLink, form }) => {
          const { link, lng } = linkMailSchema.parse(Object.fromEntries(form));
          const t = await remixI18n.getFixedT(isLanguage(lng) ? lng : "ru", "common");
          const code = signInCode(link);
          await getMailer().send({ to: emailAddress, subject: t("auth.mail.subject"), text: t("auth.mail.text", { link: magicLink, code, minutes: LINK_MINUTES }) });
        },
      },
      async ({ email, form, magicLinkVerify }) => {
        // The strategy also calls this while sending, to look the user up; we create no one then.
        if (!magicLinkVerify) throw new Error("not signing in");
        const mail = linkMailSchema.safeParse(Object.fromEntries(form));
        const signedIn = mail.success ? await consumeLink(await getDb(), email, mail.data.link) : null;
        if (!signedIn) throw new Error("auth.linkInvalid");
        return signedIn;
      },
    )),
    "email-link",
  );
  authenticator.use(
    new SignInCodeStrategy(async ({ email, code }) => {
      const signedIn = await consumeCode(await getDb(), email, code);
      if (!signedIn) throw new Error("auth.errors.badCode");
      return signedIn;
    }),
    "code",
  );
  return authenticator;
}

let appAuthenticator: Authenticator<SignedIn> | undefined;

export function getAuthenticator(): Authenticator<SignedIn> {
  appAuthenticator ??= buildAuthenticator(getSessionStorage());
  return appAuthenticator;
}

/**
 * A request that carries only what configuration says: the strategy builds the link's origin from
 * the Host and X-Forwarded-* headers of the request it is given, so it is given the market's public
 * origin, never the visitor's Host (a forged Host would otherwise put the forger's site in a
 * genuine mail).
 */
function configuredRequest(request: Request, market: Market, path: string, init: { method: "GET" | "POST"; body?: URLSearchParams }): Request {
  const origin = new URL(publicOrigin(market));
  const headers = new Headers({ "X-Forwarded-Host": origin.host, "X-Forwarded-Proto": origin.protocol.replace(":", "") });
  const cookie = request.headers.get("Cookie");
  if (cookie) headers.set("Cookie", cookie);
  if (init.body) headers.set("Content-Type", "application/x-www-form-urlencoded");
  return new Request(new URL(path, origin), { method: init.method, headers, body: init.body });
}

export type SendLinkResult = { ok: true; setCookie: string | null } | { ok: false; reason: "rate_limited"; retryAfterSeconds: number } | { ok: false; reason: "send_failed" };

/**
 * Sends a sign-in link (and its code) to an e-mail through the "email-link" strategy. The caller
 * has checked the e-mail (the sign-in form's schema, or an order's address on file); it is only
 * written the one way here. `redirectTo` is where the link leads after sign-in.
 */
export async function sendSignInLink(request: Request, input: { email: string; redirectTo: string | null; market: Market; language: string; clientIp: string }): Promise<SendLinkResult> {
  const db = await getDb();
  const email = normalizeEmail(input.email)!;
  const wait = await signInLimitWait(db, email, input.clientIp);
  if (wait !== null) return { ok: false, reason: "rate_limited", retryAfterSeconds: wait };
  const linkId = randomToken();
  await recordSignInLink(db, { email, linkId, redirectTo: input.redirectTo });
  // The strategy puts every field but the e-mail into the encrypted link: only the link's id and
  // the mail's language travel there; the rest stays in the row.
  const body = new URLSearchParams({ email, link: linkId, lng: input.language });
  try {
    await getAuthenticator().authenticate("email-link", configuredRequest(request, input.market, "/auth", { method: "POST", body }), { successRedirect: "/auth" });
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status === 302) return { ok: true, setCookie: thrown.headers.get("Set-Cookie") };
    logger.error("sign-in mail failed:", thrown);
    return { ok: false, reason: "send_failed" };
  }
  return { ok: false, reason: "send_failed" };
}

/**
 * What the confirmation page shows for a link: its e-mail while the link can still sign in, else
 * null. Reads the link the way the strategy does and changes nothing, so a mail scanner that opens
 * links uses none up. A link that does not decrypt never reaches the strategy.
 */
export async function readSignInLink(token: string): Promise<{ email: string } | null> {
  let payload: { e?: unknown; f?: { link?: unknown }; c?: unknown };
  try {
    payload = JSON.parse(openPassphraseToken(token, linkSecret()) ?? "");
  } catch {
    return null;
  }
  if (!payload || typeof payload.e !== "string" || typeof payload.f?.link !== "string" || typeof payload.c !== "number") return null;
  if (Date.now() > payload.c + LINK_MINUTES * 60_000) return null;
  return (await isLinkUsable(await getDb(), payload.e, payload.f.link)) ? { email: payload.e } : null;
}

/** Signs in with a link's token (the confirmation page's POST); null when the link cannot sign in. */
export async function signInWithLink(request: Request, market: Market, token: string): Promise<SignedIn | null> {
  if (!(await readSignInLink(token))) return null;
  const link = configuredRequest(request, market, `${CALLBACK_PATH}?${new URLSearchParams({ [LINK_PARAM]: token })}`, { method: "GET" });
  return getAuthenticator()
    .authenticate("email-link", link)
    .catch(() => null);
}

/** Signs in with the 6-digit code (both checked by the page's schema); null when the code is wrong, used or expired. */
export async function signInWithCode(request: Request, input: { email: string; code: string }): Promise<SignedIn | null> {
  const form = new URLSearchParams({ email: input.email, code: input.code });
  try {
    return await getAuthenticator().authenticate("code", new Request(request.url, { method: "POST", body: form }), { throwOnError: true });
  } catch (error) {
    if (error instanceof AuthorizationError) return null;
    throw error;
  }
}

/** After a strategy said yes: a fresh session for the user on this browser; returns Set-Cookie. */
export async function completeSignIn(request: Request, signedIn: SignedIn, clientIp: string): Promise<string> {
  const db = await getDb();
  await db.updateTable("users").set({ last_sign_in_at: new Date() }).where("id", "=", signedIn.id).execute();
  return startUserSession(getSessionStorage(), request, { id: signedIn.id, email: signedIn.email }, { ip: clientIp, userAgent: request.headers.get("User-Agent") });
}

/** Signs out through the authenticator: the session row is deleted; throws the redirect. */
export async function signOut(request: Request, redirectTo: string, headers?: HeadersInit): Promise<never> {
  return getAuthenticator().logout(request, { redirectTo, headers });
}
