import { expect, type Page } from "@playwright/test";
import { orderToCheckout, pageSettled, signInByMail, watchIdleWork } from "./journeys";
import { e2eQuery } from "./support";

/**
 * A clinic's order walked to the checkout (so it is priced and waits for its payment, ADR 072's
 * journeys), the clinic then signed in by the mailed link and on the order's page in its cabinet,
 * the page settled (hydrated, its form's checks arrived) before anything is typed into it.
 */
export async function pendingOrderInCabinet(page: Page, javaScriptEnabled: boolean): Promise<{ orderId: string; email: string }> {
  await watchIdleWork(page);
  await orderToCheckout(page);
  const checkout = new URL(page.url()).pathname.split("/").pop();
  const [order] = await e2eQuery<{ id: string; email: string }>("select o.id, o.email from payments p join orders o on o.id = p.order_id where p.provider_payment_id = $1", [checkout]);
  expect(order, `the order of the checkout ${checkout}`).toBeDefined();
  const orderPath = `/cabinet/orders/${order!.id}`;
  await page.goto(`/auth?redirectTo=${encodeURIComponent(orderPath)}`);
  await signInByMail(page, order!.email);
  await expect(page).toHaveURL(new RegExp(`${orderPath}$`));
  await pageSettled(page, javaScriptEnabled);
  return { orderId: order!.id, email: order!.email };
}

/** The cabinet's invoice form on the order's page, filled and sent. */
export async function askForInvoice(page: Page, company: string, inn: string) {
  const section = page.getByRole("region", { name: "Оплата по счёту" });
  await section.getByLabel("Название компании или ИП").fill(company);
  await section.getByRole("textbox", { name: "ИНН", exact: true }).fill(inn);
  await section.getByRole("button", { name: "Получить счёт" }).click();
}
