import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { tryGatePassword } from "~/modules/auth/gate.server";
import { isPacker, safeRedirect } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { readFormData } from "~/modules/http/request.server";
import { PACKER_STATUSES, parsePackerFilter } from "~/modules/packer/filter";
import { DEFAULT_LOGO_URL, listPackerOrders, logoUrls } from "~/modules/packer/packer.server";
import { logger } from "~/modules/log/logger.server";
import { getRequestTranslator, getClientAddress } from "~/modules/http/request-context.server";

const NO_STORE = { "Cache-Control": "no-store" };

export async function loadPackerPage({ request, context }: LoaderFunctionArgs) {
  const t = await getRequestTranslator(request, context);
  const title = t("gate.packerTitle");
  if (!(await isPacker(request, context))) return data({ gate: true as const, title }, { headers: NO_STORE });
  const filter = parsePackerFilter(new URL(request.url).searchParams);
  try {
    const { orders, hasMore } = await listPackerOrders(await getDb(), filter);
    const logos = await logoUrls(orders.map((order) => order.email));
    return data(
      {
        gate: false as const,
        title,
        filter,
        statuses: PACKER_STATUSES,
        hasMore,
        loadFailed: false,
        orders: orders.map((order) => ({ ...order, logo: (order.email && logos.get(order.email)) || DEFAULT_LOGO_URL })),
      },
      { headers: NO_STORE },
    );
  } catch (cause) {
    logger.error("packer: orders could not be read:", cause);
    return data({ gate: false as const, title, filter, statuses: PACKER_STATUSES, hasMore: false, loadFailed: true, orders: [] }, { status: 503, headers: NO_STORE });
  }
}

export async function packerPageAction({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request, context);
  const password = String(form.get("password") ?? "");
  const target = safeRedirect(form.get("redirectTo"), "/packer");
  const redirectTo = target === "/packer" || target.startsWith("/packer/") || target.startsWith("/packer?") ? target : "/packer";
  try {
    const attempt = await tryGatePassword(await getDb(), "packer", password, getClientAddress(context));
    if (attempt.ok) return redirect(redirectTo, { headers: { "Set-Cookie": attempt.setCookie } });
    const error = attempt.reason === "limited" ? "gate.tooManyAttempts" : "gate.wrongPasswordPacker";
    return data({ error }, { status: attempt.reason === "limited" ? 429 : 401 });
  } catch (cause) {
    logger.error("packer password check failed:", cause);
    return data({ error: "gate.checkFailed" }, { status: 500 });
  }
}
