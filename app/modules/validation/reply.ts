import type { SubmissionResult } from "@conform-to/react";

/**
 * The reply meant for one form of a page: several forms share the page's one action reply, and a
 * reply belongs to the form whose hidden fields (the intent, the record's id) it carries back.
 */
export function replyFor<R extends SubmissionResult<string[]>>(reply: R | undefined, own: Record<string, string>): R | undefined {
  const typed = reply?.initialValue ?? {};
  return reply && Object.entries(own).every(([name, value]) => typed[name] === value) ? reply : undefined;
}
