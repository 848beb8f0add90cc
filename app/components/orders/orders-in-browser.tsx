import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import type { OrderInBrowser } from "~/modules/orders/orders-in-browser.server";

/**
 * The orders this browser left waiting (ADR 087), above the landing and the wizard's first step:
 * one awaiting payment (pay, or open its summary), a draft (continue). Plain links, so the landing
 * keeps its no-JavaScript page; starting another is the page's own order button.
 */
export function OrdersInBrowser({ orders, startHint }: { orders: OrderInBrowser[]; startHint: string }) {
  const { t, i18n } = useTranslation();
  if (orders.length === 0) return null;
  return (
    <section className="note orders-in-browser" aria-labelledby="orders-in-browser-title">
      <p id="orders-in-browser-title">
        <strong>{t("ordersInBrowser.title")}</strong>
      </p>
      <ul className="plain-list">
        {orders.map((order) => (
          <li key={order.id}>
            <span>
              {t(order.status === "pending" ? "ordersInBrowser.pending" : "ordersInBrowser.draft", { number: order.number })}
              {order.total !== null ? ` · ${formatMoney(order.total, order.currency, i18n.language)}` : null}
            </span>{" "}
            {order.status === "pending" ? (
              <Link className="button button-small" to={`/pay/${order.id}`} aria-label={t("ordersInBrowser.payLabel", { number: order.number })}>
                {t("ordersInBrowser.pay")}
              </Link>
            ) : null}{" "}
            <Link className={order.status === "pending" ? "button button-secondary button-small" : "button button-small"} to={`/order?id=${order.id}`} aria-label={t(order.status === "pending" ? "ordersInBrowser.openLabel" : "ordersInBrowser.continueLabel", { number: order.number })}>
              {t(order.status === "pending" ? "ordersInBrowser.open" : "ordersInBrowser.continue")}
            </Link>
          </li>
        ))}
      </ul>
      <p className="small muted">{t(startHint)}</p>
    </section>
  );
}
