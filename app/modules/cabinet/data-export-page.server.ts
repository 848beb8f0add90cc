import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { plainPageHtml } from "~/modules/http/answers/error-page.server";
import { flag, readQuery } from "~/modules/http/request/list-query";
import { getLocale, getRequestTranslator } from "~/modules/http/request/request-context.server";
import { getStorage } from "~/modules/storage/storage.server";
import * as z from "zod/mini";
import { exportClientData } from "~/modules/orders/data-export.server";
import { exportPace, heldWhileStreaming, takeExportTurn } from "~/modules/orders/data-export-turns.server";
import stylesheet from "~/styles/app.css";

/** Whether the archive carries the stored models too. */
const exportQuery = z.object({ files: flag });

/**
 * The clinic's archive, named by its day: `aligner-data-2026-11-28.zip`. One with the models takes
 * a turn (ADR 082): while another is prepared for the clinic, or none frees in time, the browser gets
 * a page in the reader's language saying to try again in a minute (429, `Retry-After`).
 */
export async function loadDataExport({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const { files } = readQuery(request, exportQuery);
  const db = await getDb();
  const now = new Date();
  const headers = {
    "Content-Type": "application/zip",
    "Content-Disposition": `attachment; filename="aligner-data-${now.toISOString().slice(0, 10)}${files ? "-with-files" : ""}.zip"`,
    "Cache-Control": "private, no-store",
  };
  // Remix drops a HEAD's body unread: no archive is made for it, and no turn taken that nothing would give back.
  if (request.method === "HEAD") return new Response(null, { headers });
  const answer = files ? await takeExportTurn(db, user.email) : null;
  if (answer && !answer.ok) return busyPage(request, context, answer.retryAfterSeconds);
  const archive = exportClientData(db, getStorage(), user.email, { withFiles: files, now, signal: request.signal, beforePiece: answer?.ok ? exportPace(context.answerDrained) : undefined });
  return new Response(answer?.ok ? heldWhileStreaming(archive, answer.turn, request.signal) : archive, { headers });
}

/** "An archive is being prepared": the site's plain page, a way back to the cabinet. */
async function busyPage(request: Request, context: AppLoadContext, retryAfterSeconds: number): Promise<Response> {
  const [{ language }, t] = await Promise.all([getLocale(request, context), getRequestTranslator(request, context)]);
  const html = plainPageHtml({ language, title: t("cabinet.data.busyTitle"), text: t("cabinet.data.busy"), reference: null, link: { href: "/cabinet", label: t("cabinet.data.back") }, stylesheets: [stylesheet] });
  return new Response(html, {
    status: 429,
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Language": language, "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" },
  });
}
