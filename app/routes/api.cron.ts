import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { safeEqual } from "~/modules/auth/tokens.server";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { getFileServer } from "~/modules/ftp/file-server.server";
import { newWorkerId } from "~/modules/ftp/transfer.server";
import { runScheduledJobs } from "~/modules/jobs/scheduled.server";
import { getStorage } from "~/modules/storage/storage.server";
import { jsonAnswer } from "~/modules/http/answers/answers.server";
import { getLocale } from "~/modules/http/request/request-context.server";

/** The queue claims new files for this long per call; files in flight may take the grace period on top. */
const QUEUE_BUDGET_MS = 20_000;
const QUEUE_GRACE_MS = 20_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  return jsonAnswer((await getLocale(request, context)).language, 405, { error: "use POST" }, { headers: { Allow: "POST" } });
}

/**
 * The cron route: `POST /api/cron` with `Authorization: Bearer $CRON_SECRET`. Runs the scheduled
 * job once — the file server queue for a bounded time, then a housekeeping pass unless another
 * process is running one (the schedulers' lease, ADR 084) — and answers with its JSON summary
 * (claimed, completed, failed, released, remaining, housekeeping "ran" or "skipped", housekeepingBy,
 * abandonedDraftsDeleted…).
 * Exempt from the cross-site check; the secret guards it.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const config = getConfig();
  const header = request.headers.get("Authorization") ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7) : "";
  if (!token || !safeEqual(token, config.secrets.CRON_SECRET)) {
    return jsonAnswer((await getLocale(request, context)).language, 401, { error: "unauthorized" }, { headers: { "WWW-Authenticate": "Bearer" } });
  }
  const summary = await runScheduledJobs({ db: await getDb(), storage: getStorage(), fileServer: getFileServer() }, config.queue, {
    budgetMs: QUEUE_BUDGET_MS,
    graceMs: QUEUE_GRACE_MS,
    holder: newWorkerId("cron"),
    housekeepingIntervalMs: config.housekeeping.intervalMs,
  });
  return Response.json({ ok: true, ...summary });
}
