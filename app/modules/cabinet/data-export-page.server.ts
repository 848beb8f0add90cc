import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { flag, readQuery } from "~/modules/http/request/list-query";
import { getStorage } from "~/modules/storage/storage.server";
import * as z from "zod/mini";
import { exportClientData } from "~/modules/orders/data-export.server";

/** Whether the archive carries the stored models too. */
const exportQuery = z.object({ files: flag });

/** The clinic's archive, named by its day: `aligner-data-2026-11-28.zip`. */
export async function loadDataExport({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const { files } = readQuery(request, exportQuery);
  const now = new Date();
  const body = exportClientData(await getDb(), getStorage(), user.email, { withFiles: files, now });
  return new Response(body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="aligner-data-${now.toISOString().slice(0, 10)}${files ? "-with-files" : ""}.zip"`,
      "Cache-Control": "private, no-store",
    },
  });
}
