import type { LoaderFunctionArgs, ActionFunctionArgs } from "@remix-run/node";
import type { Staff } from "~/modules/auth/guards.server";
import { requireStaff } from "~/modules/auth/guards.server";
import { type AppConfig, getConfig } from "~/modules/config/config.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { isPaid } from "~/modules/orders/status";
import { type FileStorage, getStorage } from "~/modules/storage/storage.server";
import { getFileServer, type ProductionFileServer } from "./file-server.server";
import { queueActionSchema } from "./forms.server";
import { describeQueueError, parseQueueView } from "./queue";
import { entrySendable } from "~/modules/orders/production-queue.server";
import { deleteEntries, listQueueByOrder } from "./queue.server";
import { processQueue, sendEntryNow } from "./transfer.server";

/** The back office's transfer queue page (staff side §4.19): the queue, and deleting, processing or sending its entries. */
/** "Process queue" claims new files for this long; files in flight may take the grace period on top. */
const PROCESS_BUDGET_MS = 20_000;
const PROCESS_GRACE_MS = 20_000;
const QUEUE_STATES = ["pending", "uploading", "failed", "completed"] as const;


export async function loadQueuePage({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const filters = parseQueueView(request);
  const { groups, entries, orders, previous, next } = await listQueueByOrder(await getDb(), filters);
  const { maxAttempts } = getConfig().queue;
  return {
    title: t("ftp.title"),
    filters,
    /** Exact up to the caps; `capped` says there are more. */
    entries,
    orders,
    previous,
    next,
    groups: groups.map((group) => ({
      id: group.id,
      code: group.code.toUpperCase(),
      status: group.status,
      paid: isPaid(group.status),
      clinic: group.clinic,
      email: group.email,
      /** The order's files in the filter, and how many in each state (in the order a file goes through them). */
      files: Object.values(group.counts).reduce((sum, n) => sum + (n ?? 0), 0),
      states: QUEUE_STATES.flatMap((state) => (group.counts[state] ? [[state, group.counts[state]] as const] : [])),
      open: group.open,
      entries: group.entries.map((row) => {
        const released = row.released_at !== null;
        return {
          id: row.id,
          patient: row.patient_name,
          fileType: row.file_type,
          name: row.original_name,
          storedName: row.file_path.slice(row.file_path.lastIndexOf("/") + 1),
          destination: row.destination_path,
          size: row.file_size,
          status: row.status,
          attempts: row.attempts,
          exhausted: row.status === "failed" && row.attempts >= maxAttempts,
          error: describeQueueError(row.error_message),
          lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
          nextAttemptAt: row.status === "failed" ? row.next_attempt_at.toISOString() : null,
          completedAt: row.completed_at?.toISOString() ?? null,
          released,
          removed: row.removed_at !== null,
          /** "Загрузить" only where it applies (ADR 068): not delivered, not being sent, and due (paid, or released before). */
          sendable: (row.status === "pending" || row.status === "failed") && (isPaid(group.status) || released),
        };
      }),
    })),
  };
}

interface QueueIntentArgs {
  staff: Staff;
  ids: string[];
  /** The page as it was. */
  to: string;
  config: AppConfig;
  deps: { db: DB; storage: FileStorage; fileServer: ProductionFileServer };
}

async function deleteSelected({ ids, to, deps }: QueueIntentArgs) {
  if (ids.length === 0) return redirectWithToast(to, { type: "error", title: "ftp.toasts.errorTitle", description: "ftp.toasts.nothingSelected" });
  const count = await deleteEntries(deps.db, ids);
  return redirectWithToast(to, { type: "success", title: "ftp.toasts.deletedTitle", description: "ftp.toasts.deleted", values: { count } });
}

async function processNow({ to, config, deps }: QueueIntentArgs) {
  const summary = await processQueue(deps, config.queue, { budgetMs: PROCESS_BUDGET_MS, graceMs: PROCESS_GRACE_MS });
  if (summary.claimed === 0) return redirectWithToast(to, { type: "info", title: "ftp.toasts.doneTitle", description: "ftp.toasts.nothingToProcess" });
  return redirectWithToast(to, {
    type: summary.failed > 0 ? "warning" : "success",
    title: "ftp.toasts.doneTitle",
    description: "ftp.toasts.processed",
    values: { completed: summary.completed, failed: summary.failed, remaining: summary.remaining },
  });
}

async function sendNow({ staff, to, config, deps }: QueueIntentArgs, upload: string) {
  const sendable = await entrySendable(deps.db, upload);
  if (sendable !== "ok") return redirectWithToast(to, { type: "error", title: "ftp.toasts.errorTitle", description: `ftp.toasts.${sendable}` });
  const result = await sendEntryNow(deps, config.queue, upload, staff.actorLabel);
  if (result.ok) return redirectWithToast(to, { type: "success", title: "ftp.toasts.sentTitle", description: "ftp.toasts.sent" });
  if (result.reason === "failed") {
    const error = describeQueueError(result.error) ?? { key: "ftp.errors.unknown", values: {} };
    return redirectWithToast(to, { type: "error", title: "ftp.toasts.errorTitle", description: error.key, values: error.values });
  }
  return redirectWithToast(to, { type: "error", title: "ftp.toasts.errorTitle", description: `ftp.toasts.${result.reason}` });
}

const QUEUE_INTENTS = { delete: deleteSelected, process: processNow };

export async function queuePageAction({ request, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context);
  const submission = await readSubmission(request, context, queueActionSchema);
  if (submission.status !== "success") throw new Response("Bad request", { status: 400 });
  const { intent, ids, back } = submission.value;
  const to = `/backoffice/ftp${back}`;
  const config = getConfig();
  const deps = { db: await getDb(), storage: getStorage(), fileServer: getFileServer() };
  const args = { staff, ids, to, config, deps };
  return typeof intent === "string" ? QUEUE_INTENTS[intent](args) : sendNow(args, intent.upload);
}
