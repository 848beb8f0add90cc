import { data, redirect, type LoaderFunctionArgs, type ActionFunctionArgs } from "@remix-run/node";
import { asSent, listQuerySchema, oneOf, readQuery } from "~/modules/http/request/list-query";
import { requireStaff } from "~/modules/auth/guards.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { intentHandler } from "~/modules/http/forms/intents";
import { intentValue, readSubmission, submittedIntent } from "~/modules/http/forms/submission.server";
import type { Submission } from "@conform-to/react";
import type * as z from "zod/mini";
import { filesPageSchema } from "./files-forms.server";
import { loadSection, sectionData, sectionFailure, type SectionFailure } from "~/modules/http/answers/section.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { longOrderNumber } from "~/modules/orders/orders.server";
import { ordersOfFolders } from "~/modules/orders/stored-files.server";
import { type FileStorage, getStorage } from "~/modules/storage/storage.server";
import type { OrderStatus, StorageTrashReason } from "~db/schema";
import {
  deleteFolder,
  deleteTrash,
  type DeletionErrors,
  deletionErrorsCookie,
  listFolderFiles,
  listOrderFolders,
  listTrashFolders,
  readDeletionErrors,
  storageTotals,
  type StorageTotals,
} from "./storage-files.server";
import { type FolderVerdict, needsWarning, orderIdOfFolder } from "./storage-trash";
import { logger } from "~/modules/log/logger.server";

/** The back office's storage page (staff side §4.22): folders or one folder's files, and deleting folders and trash. */
const PAGE_SIZE = 100;
const BACK = "/backoffice/files";
const FOLDER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type FolderView = {
  name: string;
  failure: SectionFailure | null;
  files: Array<{
    key: string;
    name: string;
    size: number;
    kind: string | null;
    extension: string;
  }>;
  total: number;
};

/** The page with no folders: the listing failed, or one folder is open. */
function empty(title: string, onlyTrash: boolean, page: number, deletionErrors: DeletionErrors | null) {
  return {
    title,
    listFailed: false,
    ordersFailed: false,
    folder: null as FolderView | null,
    onlyTrash,
    page,
    hasMore: false,
    after: null as string | null,
    next: null as string | null,
    folders: [] as FolderRow[],
    totals: null as (Omit<StorageTotals, "walk" | "walking"> & { walk: { finishedAt: string; folders: number; objects: number; bytes: number } | null; walking: { startedAt: string; objects: number } | null }) | null,
    deletionErrors,
  };
}

/**
 * The storage page's address through the list kit (ADR 067): all folders or the trash, an opened
 * folder with its page, and the folders' cursor (an order's id, or a trash folder's name).
 */
const storageQuery = listQuerySchema({}, { show: oneOf(["trash"], null), folder: asSent, after: asSent });

export async function loadFilesPage({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const { show, page, folder: folderParam, after } = readQuery(request, storageQuery);
  const onlyTrash = show === "trash";
  const { result: deletionErrors, headers } = await readDeletionErrors(request);

  if (folderParam !== null) {
    // One folder opened: its files as rows (name, size, type), 100 a page.
    if (!FOLDER_NAME.test(folderParam)) throw new Response("Unknown folder", { status: 400 });
    const files = await loadSection("back-office: listing a storage folder", { message: "failures.files" }, () => listFolderFiles(getStorage(), folderParam));
    const rows = sectionData(files, []);
    return data(
      {
        ...empty(t("bo.files.title"), onlyTrash, page, deletionErrors),
        folder: {
          name: folderParam,
          failure: sectionFailure(files),
          files: rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
          total: rows.length,
        },
        hasMore: rows.length > page * PAGE_SIZE,
      },
      { headers },
    );
  }

  // The folders come from the database (ADR 063): orders with files, or the trash the walk found.
  const cursor = after === null ? null : onlyTrash ? (FOLDER_NAME.test(after) ? after : null) : UUID.test(after) ? after.toLowerCase() : null;
  const db = await getDb();
  let listing;
  try {
    listing = await Promise.all([onlyTrash ? trashRows(db, cursor) : orderRows(db, cursor), storageTotals(db)]);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    logger.error("back-office: loading the orders of storage folders failed:", error);
    return data({ ...empty(t("bo.files.title"), onlyTrash, page, deletionErrors), ordersFailed: true }, { headers });
  }
  const [{ folders, next }, totals] = listing;
  return data(
    {
      title: t("bo.files.title"),
      listFailed: false,
      ordersFailed: false,
      folder: null,
      onlyTrash,
      page,
      hasMore: false,
      after: cursor,
      next,
      totals: {
        ...totals,
        walk: totals.walk ? { ...totals.walk, finishedAt: totals.walk.finishedAt.toISOString() } : null,
        walking: totals.walking ? { ...totals.walking, startedAt: totals.walking.startedAt.toISOString() } : null,
      },
      folders,
      deletionErrors,
    },
    { headers },
  );
}

export interface FolderRow {
  name: string;
  orderNumber: string | null;
  files: number;
  size: number;
  status: OrderStatus | null;
  customer: string | null;
  warning: boolean;
  verdict: FolderVerdict | StorageTrashReason;
  deletable: boolean;
  garbage: number;
}

async function orderRows(db: DB, after: string | null): Promise<{ folders: FolderRow[]; next: string | null }> {
  const { folders, next } = await listOrderFolders(db, { after });
  return {
    next,
    folders: folders.map((folder) => ({
      name: folder.name,
      orderNumber: folder.orderId ? longOrderNumber(folder.orderId) : null,
      files: folder.files.length,
      size: folder.size,
      status: folder.order?.status ?? null,
      customer: folder.order ? folder.order.fullName || folder.order.email : null,
      warning: needsWarning(folder.order?.status),
      verdict: folder.verdict,
      deletable: folder.deletable,
      garbage: folder.garbage.length,
    })),
  };
}

/** The found trash by folder; a folder's order, when it still exists, gives status and customer. */
async function trashRows(db: DB, after: string | null): Promise<{ folders: FolderRow[]; next: string | null }> {
  const { folders, next } = await listTrashFolders(db, { after });
  const ids = folders.map((folder) => orderIdOfFolder(folder.name)).filter((id): id is string => id !== null);
  const orders = ids.length ? await ordersOfFolders(db, ids) : [];
  const byId = new Map(orders.map((order) => [order.id, order]));
  return {
    next,
    folders: folders.map((folder) => {
      const orderId = orderIdOfFolder(folder.name);
      const order = orderId ? byId.get(orderId) : undefined;
      return {
        name: folder.name,
        orderNumber: orderId ? longOrderNumber(orderId) : null,
        files: folder.files,
        size: folder.size,
        status: order?.status ?? null,
        customer: order ? order.full_name || order.email : null,
        warning: needsWarning(order?.status),
        verdict: folder.reason,
        // Offered when the whole folder was found to be trash; deleting judges the folder again.
        deletable: folder.reason !== "unlisted",
        garbage: folder.files,
      };
    }),
  };
}

interface FilesIntentArgs {
  db: DB;
  storage: FileStorage;
  submission: Submission<z.output<typeof filesPageSchema>, string[]>;
  /** The page as it was. */
  back: string;
}

async function deleteOneFolder({ db, storage, submission, back }: FilesIntentArgs) {
  const name = intentValue(submission, "delete_folder")?.folder ?? "";
  let deletion;
  try {
    deletion = await deleteFolder(db, storage, name);
  } catch (error) {
    logger.error("back-office: deleting a storage folder failed:", error);
    return redirectWithToast(back, {
      type: "error",
      title: "bo.toasts.error",
      description: "bo.files.listFailed",
    });
  }
  if (!deletion.ok) {
    const verdict = deletion.folder?.verdict ?? "not_an_order_folder";
    return redirectWithToast(back, {
      type: "error",
      title: "bo.files.notDeletable",
      description: deletion.reason === "not_found" ? "bo.files.notFound" : `bo.files.verdicts.${verdict}`,
    });
  }
  if (deletion.report.errors.length > 0) return withErrors(back, deletion.report);
  return redirectWithToast(back, {
    type: "success",
    title: "bo.files.folderDeleted",
    description: "bo.files.folderDeletedText",
  });
}

async function deleteAllTrash({ db, storage, back }: FilesIntentArgs) {
  let report;
  try {
    report = await deleteTrash(db, storage);
  } catch (error) {
    logger.error("back-office: deleting storage trash failed:", error);
    return redirectWithToast(back, {
      type: "error",
      title: "bo.toasts.error",
      description: "bo.files.listFailed",
    });
  }
  if (report.errors.length > 0) return withErrors(back, report);
  if (report.deletedFiles === 0)
    return redirectWithToast(back, {
      type: "info",
      title: "bo.files.trashEmpty",
    });
  return redirectWithToast(back, {
    type: "success",
    title: "bo.files.deleted",
    description: "bo.files.deletedText",
    values: { files: report.deletedFiles, folders: report.deletedFolders },
  });
}

const FILES_INTENTS: Record<string, (args: FilesIntentArgs) => Promise<Response>> = {
  delete_folder: deleteOneFolder,
  delete_trash: deleteAllTrash,
};

export async function filesPageAction({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const submission = await readSubmission(request, context, filesPageSchema);
  const db = await getDb();
  const storage = getStorage();
  const back = `${BACK}${new URL(request.url).search}`;
  const handler = intentHandler(FILES_INTENTS, submittedIntent(submission));
  if (!handler) return redirect(back);
  return handler({ db, storage, submission, back });
}

async function withErrors(back: string, report: Parameters<typeof deletionErrorsCookie>[0]) {
  return redirectWithToast(
    back,
    {
      type: "warning",
      title: "bo.files.someFailed",
      values: { count: report.failedFolders },
    },
    { headers: { "Set-Cookie": await deletionErrorsCookie(report) } },
  );
}
