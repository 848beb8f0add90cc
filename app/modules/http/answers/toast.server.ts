import { redirect } from "@remix-run/node";
import { cookies } from "../request/cookies.server";
import { takeFlash } from "../request/request-context.server";

/** A one-time message shown by the next page the server renders. Texts are translation keys. */
export interface Toast {
  type: "success" | "error" | "info" | "warning";
  title: string;
  description?: string;
  values?: Record<string, string | number>;
  /** Further lines, e.g. one per refused file; a value whose name ends in "Key" is translated first. */
  lines?: Array<{ key: string; values?: Record<string, string | number> }>;
  /** A button in the toast that posts a small form (undo, ADR 062): its label's key, where it posts, its fields. */
  action?: { label: string; url: string; fields: Record<string, string> };
}

export async function toastCookieHeader(toast: Toast): Promise<string> {
  return cookies.toast().serialize(toast);
}

export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookieHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads the toast of this request and the header that clears it. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const { value, headers } = await takeFlash(request, cookies.toast());
  return { toast: isToast(value) ? value : null, headers };
}

function isToast(value: unknown): value is Toast {
  if (!value || typeof value !== "object") return false;
  const candidate = value as Partial<Toast>;
  return typeof candidate.title === "string" && ["success", "error", "info", "warning"].includes(candidate.type ?? "");
}
