import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { type GateName, tryGatePassword } from "~/modules/auth/gate.server";
import { getDb } from "~/modules/db/db.server";
import { getClientAddress } from "~/modules/http/request/request-context.server";
import { redirectTarget } from "~/modules/http/request/redirect-target.server";
import { type FormReply, readSubmission, refused } from "~/modules/http/forms/submission.server";
import { logger } from "~/modules/log/logger.server";
import { gatePasswordSchema } from "./forms";

/** The gate's reply: the password is never sent back, only why it did not open. */
export type GateReply = FormReply;

interface GatePage {
  gate: GateName;
  /** Where the gate leads when `redirectTo` is missing or leads elsewhere. */
  home: string;
  /** Whether a `redirectTo` (already a safe local path) stays behind this gate. */
  within: (path: string) => boolean;
  /** What a wrong password is called at this gate. */
  wrongPassword: string;
}

/**
 * The shared-password gate's POST (the back office's login, the packer station): the password
 * tried (rate-limited per address), then where the form asked to go if it stays behind the gate.
 * A wrong password, too many tries or a failed check is said at the password field.
 */
export async function passwordGateAction(request: Request, context: AppLoadContext, page: GatePage) {
  const submission = await readSubmission(request, context, gatePasswordSchema);
  // Every field has a default: the schema refuses nothing but a body that is no form.
  const { password, redirectTo } = submission.status === "success" ? submission.value : { password: "", redirectTo: undefined };
  const target = await redirectTarget(request, context, redirectTo, page.home);
  const said = (error: string, status: number, headers?: HeadersInit) =>
    refused({ ...submission, reply: (options) => submission.reply({ ...options, hideFields: ["password"] }) }, undefined, status, { password: [error] }, headers);
  try {
    const attempt = await tryGatePassword(await getDb(), page.gate, password, getClientAddress(context));
    if (attempt.ok) return redirect(page.within(target) ? target : page.home, { headers: { "Set-Cookie": attempt.setCookie } });
    return attempt.reason === "limited" ? said("gate.tooManyAttempts", 429, { "Retry-After": String(attempt.retryAfterSeconds ?? 60) }) : said(page.wrongPassword, 401);
  } catch (cause) {
    logger.error(`${page.gate} password check failed:`, cause);
    return said("gate.checkFailed", 500);
  }
}
