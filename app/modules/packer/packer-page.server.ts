import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { passwordGateAction } from "~/modules/auth/password-gate.server";
import { isPacker } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { oldPageRedirect } from "~/modules/db/keyset.server";
import { PACKER_CURSOR_CASTS } from "~/modules/orders/packer-orders.server";
import { PACKER_STATUSES, parsePackerFilter } from "~/modules/packer/filter";
import { DEFAULT_LOGO_URL, listPackerOrders, logoUrls, packerListPage } from "~/modules/packer/packer.server";
import { logger } from "~/modules/log/logger.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { readLabelFormat } from "./label-format.server";

const NO_STORE = { "Cache-Control": "no-store" };

export async function loadPackerPage({ request, context }: LoaderFunctionArgs) {
  const t = await getRequestTranslator(request, context);
  const title = t("gate.packerTitle");
  if (!(await isPacker(request, context))) return data({ gate: true as const, title }, { headers: NO_STORE });
  const filter = parsePackerFilter(request);
  const labelFormat = await readLabelFormat(request, context);
  const db = await getDb();
  // An old `?page=N` address goes to its page's cursor first (ADR 091), walked by the orders' rows alone.
  const moved = await oldPageRedirect(new URL(request.url), filter, PACKER_CURSOR_CASTS, (after) => packerListPage(db, { ...filter, after, before: null }));
  if (moved) throw moved;
  try {
    const { orders, hasMore, cursors } = await listPackerOrders(db, filter);
    const logos = await logoUrls(orders.map((order) => order.email));
    return data(
      {
        gate: false as const,
        title,
        filter,
        labelFormat,
        statuses: PACKER_STATUSES,
        hasMore,
        cursors,
        loadFailed: false,
        orders: orders.map((order) => ({ ...order, logo: (order.email && logos.get(order.email)) || DEFAULT_LOGO_URL })),
      },
      { headers: NO_STORE },
    );
  } catch (cause) {
    logger.error("packer: orders could not be read:", cause);
    return data({ gate: false as const, title, filter, labelFormat, statuses: PACKER_STATUSES, hasMore: false, cursors: { next: null, previous: null }, loadFailed: true, orders: [] }, { status: 503, headers: NO_STORE });
  }
}

export async function packerPageAction({ request, context }: ActionFunctionArgs) {
  return passwordGateAction(request, context, {
    gate: "packer",
    home: "/packer",
    within: (path) => path === "/packer" || path.startsWith("/packer/") || path.startsWith("/packer?"),
    wrongPassword: "gate.wrongPasswordPacker",
  });
}
