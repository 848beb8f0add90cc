import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch } from "../../support/app-server";
import type { TestDatabase } from "../../support/database";
import { startStripeDouble, type StripeDouble, stripeAppEnv } from "../../support/stripe-double";
import { browserIn, MARKET_HOSTS } from "../i18n/support";
import { startApp, type TestApp } from "../../support/app";

/**
 * An EU clinic pays in its own language (ADR 043): the summary's lines, what Stripe receives (line
 * items, description, the page's locale) and the payment page all speak the order's language, with
 * euro amounts to the cent; the amounts Stripe receives stay exact in cents.
 */

type Browser = ReturnType<typeof browserFetch>;

function binaryStl(triangles: number): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.writeUInt32LE(triangles, 80);
  return bytes;
}

const nbsp = (html: string) => html.replace(/<!-- -->/g, "").replace(/&nbsp;|\u00a0|\u202f/g, " ").replace(/&#x27;|&#39;/g, "'");

/** One patient with one hard matrix, walked to the summary on the international market. */
async function orderAtSummary(browser: Browser, t: TestDatabase): Promise<string> {
  const email = `eu-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.com`;
  await browser.request("/order", { form: { intent: "next" } });
  await browser.request("/order", { form: { intent: "next", email, phone: "+49 30 123456" } });
  await browser.request("/order", { form: { intent: "next", full_name: "Dr. Anna Keller", address: "Berlin, Friedrichstraße 1" } });
  await browser.request("/order", { form: { intent: "add_patient", patient_name: "Keller M." } });
  await browser.request("/order", { form: { intent: "next" } });
  const form = new FormData();
  form.append("files", new Blob([new Uint8Array(binaryStl(4))]), "m-upper.stl");
  form.append("intent", "next");
  const upload = await fetch(`${browser.app.url}/order`, { method: "POST", body: form, headers: { Cookie: browser.jar.header(), Origin: browser.app.url }, redirect: "manual" });
  browser.jar.store(upload);
  await browser.request("/order", { form: { intent: "next", matrix_type: "hard" } });
  await browser.request("/order", { form: { intent: "skip_aligners" } });
  await browser.request("/order", { form: { intent: "skip_retainers" } });
  const order = await t.db.selectFrom("orders").select(["id", "wizard_step"]).where("email", "=", email).executeTakeFirstOrThrow();
  expect(order.wizard_step).toBe(11);
  return order.id;
}

const CASES = [
  { language: "de", matrix: "Harte Matrizen für Keller M.", delivery: "Verpackung und Versand", fee: "Servicegebühr", unit: "14,90 €", total: "150,00 €", description: (n: string) => `Aligner-Bestellung Nr. ${n}` },
  { language: "es", matrix: "Matrices rígidas para Keller M.", delivery: "Embalaje y envío", fee: "Cargo por servicio", unit: "14,90 €", total: "150,00 €", description: (n: string) => `Pedido de alineadores n.º ${n}` },
  { language: "fr", matrix: "Matrices rigides pour Keller M.", delivery: "Emballage et livraison", fee: "Frais de service", unit: "14,90 €", total: "150,00 €", description: (n: string) => `Commande d'aligneurs n°\u00a0${n}` },
  { language: "it", matrix: "Matrici rigide per Keller M.", delivery: "Imballaggio e spedizione", fee: "Costo del servizio", unit: "14,90 €", total: "150,00 €", description: (n: string) => `Ordine di allineatori n. ${n}` },
] as const;

describe("an EU clinic's order and payment in its own language", () => {
  let t: TestDatabase;
  let app: TestApp;
  let stripe: StripeDouble;

  beforeAll(async () => {
    stripe = await startStripeDouble();
    app = await startApp({ env: { ...MARKET_HOSTS, ...stripeAppEnv(stripe) } });
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
    await stripe?.close();
  });

  it.each(CASES)("words the summary, Stripe's lines and the payment page in $language, euros to the cent", async (c) => {
    const browser = await browserIn(app, "international", c.language);
    const orderId = await orderAtSummary(browser, t);
    const number = orderId.slice(0, 6).toUpperCase();

    const summary = nbsp(await (await browser.request("/order")).text());
    for (const text of [c.matrix, c.delivery, c.fee, `1 × ${c.unit}`, "15,00 €", c.total]) expect(summary, text).toContain(text);
    expect(summary).not.toMatch(/Hard matrices|Packaging and delivery|Service fee/);

    const pay = await browser.request("/order", { form: { intent: "pay" } });
    expect([302, 303]).toContain(pay.status);
    const attempt = await t.db.selectFrom("payments").selectAll().where("order_id", "=", orderId).executeTakeFirstOrThrow();
    const session = stripe.sessions.get(attempt.provider_payment_id!)!;
    expect(session.locale).toBe(c.language);
    expect(session.metadata.description).toBe(c.description(number));
    const names = session.line_items_sent.map((item) => item.price_data.product_data.name);
    expect(names).toContain(c.matrix);
    expect(names).toContain(c.delivery);
    expect(names).toContain(c.fee);
    // Exact in cents: the lines add up to the total charged.
    expect(session.line_items_sent.reduce((sum, item) => sum + item.quantity * item.price_data.unit_amount, 0)).toBe(15_000);
    expect(session.line_items_sent.find((item) => item.price_data.product_data.name === c.delivery)!.price_data.unit_amount).toBe(1_500);

    // The payment page in the reader's language: the same clinic reading in English sees English lines.
    const page = nbsp(await (await browser.request(`/pay/${orderId}`)).text());
    for (const text of [c.matrix, c.delivery, c.fee, c.total]) expect(page, text).toContain(text);
    await browser.request("/language", { form: { lng: "en", redirectTo: "/" } });
    const english = nbsp(await (await browser.request(`/pay/${orderId}`)).text());
    for (const text of ["Hard matrices for Keller M.", "Packaging and delivery", "Service fee", "€150.00"]) expect(english, text).toContain(text);
  });
});
