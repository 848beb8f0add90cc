import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession } from "~/modules/auth/session.server";
import { getConfig } from "~/modules/config/config.server";
import { paymentLinkPath, paymentResultPath } from "~/modules/payments/payment-links.server";
import { logoFolder } from "~/modules/packer/logo-names.server";
import type { Order } from "~db/schema";
import type { TestDatabase } from "../../support/database";
import { CookieJar } from "../../support/app-server";
import { buildOrder, buildOrderIn } from "../../support/builders";
import { COMPANY_INTERNATIONAL, INVOICE_SUPPLIER } from "../../support/company";
import { s3AppEnv, startS3Server } from "../../support/s3-server";
import { signInToken } from "../../support/sign-in-link";
import { binaryStl } from "../../support/stl-models";
import { routeFiles, routeKey, type RouteFile } from "./route-files";
import { SECRETS, startApp, type TestApp } from "../../support/app";

/**
 * Who may open what, over real HTTP (DESIGN §4.4, §4.20–4.25; staff-partner-packer §2): every route
 * file × GET (and POST where it has an action) × every kind of visitor, against one app and one
 * database. The table below is the expectation; a route file without a row fails the test.
 *
 * Outcomes, one per role in the order of ROLES:
 *   200, 400, 401, 403, 404, 405, …  exactly that status
 *   →auth        3xx to the sign-in page (/auth?redirectTo=…)
 *   →gate        3xx to the back-office password gate (/backoffice/login?redirectTo=…)
 *   →packer?     3xx to the packer password gate (/packer?redirectTo=…)
 *   →/path       3xx whose Location starts with /path
 *   …*           the request may change stored state (rows or files); without `*` the test checks
 *                that the database and the stored files are exactly as before the request.
 *
 * Roles: anon (no cookie), clientA and clientB (signed in; each owns orders), partner (signed in,
 * has a partner code), packer (passed the packer password), office (passed the back-office
 * password: a manager-level session without a user), manager and admin (signed in with that role).
 * Every body a role gets is searched for the other client's order (e-mail, name, address, patient,
 * id unless the request carried it). Further sections reuse the table: malformed ids, single-fetch
 * `.data` requests, the other tus methods, crafted return addresses, payment-link tokens,
 * cross-site POSTs, and the cookie flags in test and production mode.
 */

const ROLES = ["anon", "clientA", "clientB", "partner", "packer", "office", "manager", "admin"] as const;
type Role = (typeof ROLES)[number];

interface Fixture {
  orderA: Order;
  patientA: { id: string; name: string };
  fileUrlA: string;
  paymentA: string;
  /** A bank-transfer invoice of order A (ADR 072). */
  invoiceA: string;
  /** A draft of client A, still open for uploads. */
  draftA: { id: string; patientId: string };
  orderB: Order;
  patientB: string;
  /** A never-paid order staff may delete. */
  victim: Order;
  /** A paid order staff may complete. */
  paidVictim: Order;
  partnerCode: string;
  partnerCodeId: string;
  bystanderEmail: string;
}

type Body = Record<string, string> | FormData;

interface Row {
  /** The URL requested (params filled from the fixtures); the pattern itself when it has none. */
  url?: (f: Fixture) => string;
  get: string;
  /** Required exactly for routes with an action. */
  post?: string;
  /** What a user allowed to act would send; refused roles send the same. */
  form?: (f: Fixture, role: Role) => Body;
  headers?: (f: Fixture) => Record<string, string>;
  /** The POST ends the visitor's session: use a fresh one so the other rows keep theirs. */
  fresh?: boolean;
  /** Exempt from the cross-site check (DESIGN §4.22): webhooks and cron carry their own secret. */
  crossSiteExempt?: boolean;
  /** Cells (by role) whose body may show client A's data to a stranger on purpose; says why. */
  leakExempt?: { roles: Role[]; why: string };
}

const tusFor = (orderId: string, patientId: string, length: number) => {
  const meta = { filename: "upper.stl", orderId, patientId, type: "aligners", uploadKey: "matrix-upload-key-1" };
  return {
    "Tus-Resumable": "1.0.0",
    "Upload-Length": String(length),
    "Upload-Metadata": Object.entries(meta)
      .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
      .join(","),
  };
};
const tus = (f: Fixture) => tusFor(f.orderA.id, f.patientA.id, 184);

function multipart(field: string, name: string, content: Buffer): FormData {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(content)]), name);
  return form;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

// prettier-ignore
const MATRIX: Record<string, Row> = {
  //                                   anon      clientA   clientB   partner   packer    office    manager   admin
  "/:lang?": { url: (f) => `/${f.partnerCode}`,
    get:                               "200      200       200       200       200       200       200       200" },
  "/*": { url: () => "/no/such/page",
    get:                               "404      404       404       404       404       404       404       404",
    post:                              "404      404       404       404       404       404       404       404" },
  "/healthz": {
    get:                               "200      200       200       200       200       200       200       200" },
  "/privacy": { get:                   "200      200       200       200       200       200       200       200" },
  "/terms": { get:                     "200      200       200       200       200       200       200       200" },
  "/public-offer": { get:              "200      200       200       200       200       200       200       200" },
  "/data-consent": { get:              "200      200       200       200       200       200       200       200" },
  // The Impressum is the international market's (ADR 076); the domestic site's provider is in its public offer.
  "/impressum": { get:                 "→/public-offer →/public-offer →/public-offer →/public-offer →/public-offer →/public-offer →/public-offer →/public-offer" },
  "/refdoc": { get:                    "200      200       200       200       200       200       200       200" },
  "/thankyou": { get:                  "200      200       200       200       200       200       200       200" },
  "/cookies": { form: () => ({ redirectTo: "/" }),
    get:                               "→/       →/        →/        →/        →/        →/        →/        →/",
    post:                              "→/       →/        →/        →/        →/        →/        →/        →/" },
  // The interface texts of data requests: public, as every page shows them.
  "/texts/:key": { url: () => "/texts/ru.customer.outdated",
    get:                               "200      200       200       200       200       200       200       200" },
  "/language": { form: () => ({ lng: "en", redirectTo: "/" }),
    get:                               "→/       →/        →/        →/        →/        →/        →/        →/",
    post:                              "→/en     →/en      →/en      →/en      →/en      →/en      →/en      →/en" },

  // Sign-in: links and codes for anyone; a signed-in user goes on to the cabinet.
  "/auth": { form: (_f, role) => ({ email: `matrix-${role.toLowerCase()}@clinic.test`, redirectTo: "/cabinet" }),
    get:                               "200      →/cabinet →/cabinet →/cabinet 200       200       →/cabinet →/cabinet",
    post:                              "→/auth?* →/auth?*  →/auth?*  →/auth?*  →/auth?*  →/auth?*  →/auth?*  →/auth?*" },
  "/auth/verify": { url: () => "/auth/verify?token=forged", form: () => ({ token: "forged" }),
    get:                               "200      200       200       200       200       200       200       200",
    post:                              "→/auth/verify?token=invalid →/auth/verify?token=invalid →/auth/verify?token=invalid →/auth/verify?token=invalid →/auth/verify?token=invalid →/auth/verify?token=invalid →/auth/verify?token=invalid →/auth/verify?token=invalid" },
  "/auth/sign-out": { fresh: true, form: () => ({}),
    get:                               "→/       →/        →/        →/        →/        →/        →/        →/",
    post:                              "→/       →/        →/        →/        →/        →/        →/        →/" },

  // The signed-in client's own pages.
  "/cabinet": { form: () => ({ channel: "whatsapp" }),
    get:                               "→auth    200       200       200       →auth     →auth     200       200",
    post:                              "→auth    →/cabinet* →/cabinet* →/cabinet* →auth  →auth     →/cabinet* →/cabinet*" },
  // The clinic's own data as a ZIP (ADR 078): every signed-in user gets their own, nobody else's.
  "/cabinet/data": { url: () => "/cabinet/data",
    get:                               "→auth    200       200       200       →auth     →auth     200       200" },
  // The clinic's erasure request (ADR 079): each signed-in user asks for their own (withdrawing none here is a toast).
  "/cabinet/erasure": { form: () => ({ intent: "withdraw" }),
    get:                               "→auth    200       200       200       →auth     →auth     200       200",
    post:                              "→auth    →/cabinet/erasure* →/cabinet/erasure* →/cabinet/erasure* →auth →auth →/cabinet/erasure* →/cabinet/erasure*" },
  // Ordering again from a patient (ADR 071): only the clinic whose order it is; staff order nothing on its behalf.
  "/cabinet/again/:orderId/:patientId": { url: (f) => `/cabinet/again/${f.orderA.id}/${f.patientA.id}`,
    form: (f) => ({ kind: "replacement", files: f.fileUrlA.replace("/files/orders/", "") }),
    get:                               "→auth    200       404       404       →auth     →auth     404       404",
    post:                              "→auth    →/order*  404       404       →auth     →auth     404       404" },
  // The order's own page in the cabinet: its signed-in owner only (order A is pending, so "received" changes nothing).
  "/cabinet/orders/:orderId": { url: (f) => `/cabinet/orders/${f.orderA.id}`, form: () => ({ intent: "received" }),
    get:                               "→auth    200       404       404       →auth     →auth     404       404",
    post:                              "→auth    →/cabinet/orders/ 404 404     →auth     →auth     404       404" },
  // A bank-transfer invoice of the order, ready to print (ADR 072): its signed-in owner only, as the order's page.
  "/cabinet/orders/:orderId/invoices/:invoiceId": { url: (f) => `/cabinet/orders/${f.orderA.id}/invoices/${f.invoiceA}`,
    get:                               "→auth    200       404       404       →auth     →auth     404       404" },
  // Opening the page writes nothing (a GET must not); its posts create the code and save the name (ADR 083).
  "/partner": { form: () => ({ intent: "name", user_name: "Реферал Тестовый" }),
    get:                               "→auth    200       200       200       →auth     →auth     200       200",
    post:                              "→auth    →/partner* →/partner* →/partner* →auth  →auth     →/partner* →/partner*" },

  // One order: its browser, its signed-in owner, staff; 404 for everyone else (DESIGN §4.4).
  "/order (layout)": { url: (f) => `/order?id=${f.orderA.id}`, form: () => ({ intent: "edit" }),
    get:                               "404      200       404       404       404       200       200       200",
    post:                              "404      →/order*  404       404       404       →/order*  →/order*  →/order*" },
  "/order/new": { form: () => ({ reason: "clear" }),
    get:                               "→/order  →/order   →/order   →/order   →/order   →/order   →/order   →/order",
    post:                              "→/order  →/order   →/order   →/order   →/order   →/order   →/order   →/order" },
  "/pay/:orderId": { url: (f) => `/pay/${f.orderA.id}`, form: () => ({}),
    get:                               "404      200       404       404       404       200       200       200",
    post:                              "404      →/payment/sandbox/* 404 404     404       →/payment/sandbox/* →/payment/sandbox/* →/payment/sandbox/*" },
  // Without the return address's token (see the payment-link section) only those who may open the order.
  "/payment/success": { url: (f) => `/payment/success?orderId=${f.orderA.id}`,
    get:                               "404      200       404       404       404       200       200       200" },
  "/payment/sandbox/:paymentId": { url: (f) => `/payment/sandbox/${f.paymentA}`, form: () => ({ outcome: "decline" }),
    leakExempt: { roles: ["anon", "clientB", "partner"], why: "the checkout id is the capability, like a provider's payment page" },
    get:                               "200      200       200       200       200       200       200       200",
    post:                              "→/payment/success* →/payment/success* →/payment/success* →/payment/success* →/payment/success* →/payment/success* →/payment/success* →/payment/success*" },
  "/files/orders/*": { url: (f) => f.fileUrlA,
    get:                               "404      200       404       404       404       200       200       200" },
  "/uploads/status": { url: (f) => `/uploads/status?order=${f.orderA.id}`,
    get:                               "404      200       404       404       404       200       200       200" },
  // Action-only resource routes: Remix answers a GET without a loader with 400.
  "/uploads/continue": { form: (f) => ({ orderId: f.orderA.id }),
    get:                               "400      400       400       400       400       400       400       400",
    post:                              "404      →/order?id=* 404    404       404       →/order?id=* →/order?id=* →/order?id=*" },
  "/uploads/finish": { form: (f) => ({ id: `tus-${f.orderA.id}-${"0".repeat(32)}`, uploadKey: "matrix-upload-key-1" }),
    get:                               "400      400       400       400       400       400       400       400",
    post:                              "404      404       404       404       404       404       404       404" },
  // Past the access check the upload is refused with 409: order A is pending, so its files are frozen.
  "/uploads/tus/*": { url: () => "/uploads/tus", headers: tus, form: () => ({}),
    get:                               "405      405       405       405       405       405       405       405",
    post:                              "404      409       404       404       404       409       409       409" },

  // Back-office: staff only (a user with a staff role, or the back-office password); roles for admins.
  // A wrong password is 401; staff who are already in are sent on by the page's loader.
  "/backoffice/login": { form: () => ({ password: "not-the-password" }),
    get:                               "200      200       200       200       200       →/backoffice →/backoffice →/backoffice",
    post:                              "401      401       401       401       401       →/backoffice →/backoffice →/backoffice" },
  "/backoffice/logout": { fresh: true, form: () => ({}),
    get:                               "→/backoffice →/backoffice →/backoffice →/backoffice →/backoffice →/backoffice →/backoffice →/backoffice",
    post:                              "→/backoffice/login →/backoffice/login →/backoffice/login →/backoffice/login →/backoffice/login →/backoffice/login →/backoffice/login →/backoffice/login" },
  "/backoffice (layout)": {
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200" },
  "/backoffice": { form: (f) => ({ intent: "payment_link", orderId: f.victim.id }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice →/backoffice →/backoffice" },
  "/backoffice/*": { url: () => "/backoffice/no/such/page",
    get:                               "→gate    →gate     →gate     →gate     →gate     404       404       404" },
  "/backoffice/test": { form: () => ({}),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice/test →/backoffice/test →/backoffice/test" },
  "/backoffice/affiliates": { form: (f) => ({ intent: "add_payout", partner_code_id: f.partnerCodeId, amount: "1000", year: "2026", quarter: "3", note: "matrix" }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice/affiliates* →/backoffice/affiliates* →/backoffice/affiliates*" },
  "/backoffice/clients": { form: (f) => ({ email: f.orderA.email!, currency: "rub", discountPercentage: "50", personalComment: "matrix" }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice/clients* →/backoffice/clients* →/backoffice/clients*" },
  "/backoffice/files": { form: (f) => ({ intent: "delete_folder", folder: `order_${f.orderA.id}` }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice/files* →/backoffice/files* →/backoffice/files*" },
  "/backoffice/ftp": { form: () => ({ intent: "delete", ids: "00000000-0000-4000-8000-000000000000" }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice/ftp →/backoffice/ftp →/backoffice/ftp" },
  "/backoffice/translate": { form: (_f, role) => ({ intent: "add", originalText: `Матрица доступа (${role})`, translatedText: "Access matrix", targetLanguage: "en" }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice/translate* →/backoffice/translate* →/backoffice/translate*" },
  // The catalogue of texts: an override of one key in one language (ADR 069).
  "/backoffice/translate/catalogue": { form: (_f, role) => ({ intent: "override", key: "bo.roles.title", targetLanguage: "en", translatedText: `Roles (${role})` }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice/translate/catalogue* →/backoffice/translate/catalogue* →/backoffice/translate/catalogue*" },
  "/backoffice/roles": { form: (f) => ({ intent: "assign_email", email: f.bystanderEmail, role: "admin" }),
    get:                               "→gate    →gate     →gate     →gate     →gate     403       403       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     403       403       →/backoffice/roles*" },
  // Erasure requests (ADR 079): admins only; a forged request id is a toast.
  "/backoffice/erasures": { form: () => ({ intent: "approve", id: "00000000-0000-4000-8000-000000000000" }),
    get:                               "→gate    →gate     →gate     →gate     →gate     403       403       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     403       403       →/backoffice/erasures*" },
  // The order's own page (ADR 069): its layout (header and tabs) and its overview, staff only, whoever's order it is.
  "/backoffice/orders/:orderId (layout)": { url: (f) => `/backoffice/orders/${f.orderA.id}`,
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200" },
  // Its POST records an invoice's bank transfer (ADR 072): order B has no such invoice, which the toast says, and nothing changes.
  // Only staff signed in as themselves record one: the shared password names nobody (ADR 083).
  "/backoffice/orders/:orderId": { url: (f) => `/backoffice/orders/${f.orderB.id}`, form: (f) => ({ intent: "invoice_paid", invoiceId: f.invoiceA }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     403       →/backoffice/orders/ →/backoffice/orders/" },
  // An order's invoice as the clinic prints it (ADR 072): staff only, whoever's order it is.
  "/backoffice/orders/:orderId/invoices/:invoiceId": { url: (f) => `/backoffice/orders/${f.orderA.id}/invoices/${f.invoiceA}`,
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200" },
  // The office password deletes the never-paid order first; manager and admin then get "not found" as a toast.
  "/backoffice/orders/:orderId/delete": { url: (f) => `/backoffice/orders/${f.victim.id}/delete`, form: () => ({ back: "/backoffice" }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice* →/backoffice →/backoffice" },
  "/backoffice/orders/:orderId/status": { url: (f) => `/backoffice/orders/${f.paidVictim.id}/status`, form: () => ({ to: "completed", back: "/backoffice" }),
    get:                               "→gate    →gate     →gate     →gate     →gate     →/backoffice? →/backoffice? →/backoffice?",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice* →/backoffice* →/backoffice*" },
  // The task tracker is not configured here: the send ends on the tracker page with its error.
  "/backoffice/orders/:orderId/tracker": { url: (f) => `/backoffice/orders/${f.orderB.id}/tracker`, form: () => ({ back: "/backoffice" }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice/orders/ →/backoffice/orders/ →/backoffice/orders/" },
  // An order's thread with the clinic and the lab's notes (ADR 104): staff only, whoever's order it is; a note is stored.
  "/backoffice/orders/:orderId/thread": { url: (f) => `/backoffice/orders/${f.orderA.id}/thread`, form: () => ({ intent: "note", body: "Проверить срез" }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice/orders/* →/backoffice/orders/* →/backoffice/orders/*" },
  // An order's files: staff only, whoever's order it is; staff correct a file's jaw and step there (ADR 058).
  "/backoffice/orders/:orderId/files": { url: (f) => `/backoffice/orders/${f.orderA.id}/files`,
    form: (f) => ({ patientId: f.patientA.id, type: "aligners", path: f.fileUrlA.replace("/files/orders/", ""), jaw: "lower", step: "1" }),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/backoffice/orders/* →/backoffice/orders/* →/backoffice/orders/*" },
  "/send-test": { form: () => multipart("file", "probe.stl", binaryStl(2)),
    get:                               "→gate    →gate     →gate     →gate     →gate     200       200       200",
    post:                              "→gate    →gate     →gate     →gate     →gate     →/send-test?* →/send-test?* →/send-test?*" },

  // Packer station: its own password; staff sign-in opens nothing there (DESIGN §4.25).
  "/packer": { form: () => ({ password: "not-the-password" }),
    get:                               "200      200       200       200       200       200       200       200",
    post:                              "401      401       401       401       401       401       401       401" },
  "/packer/bags/:orderId": { url: (f) => `/packer/bags/${f.orderA.id}`,
    get:                               "→packer? →packer?  →packer?  →packer?  200       →packer?  →packer?  →packer?" },
  "/packer/box/:orderId": { url: (f) => `/packer/box/${f.orderA.id}`,
    get:                               "→packer? →packer?  →packer?  →packer?  200       →packer?  →packer?  →packer?" },
  "/packer/logo": { url: (f) => `/packer/logo?order=${f.orderA.id}`, form: () => multipart("logo", "logo.png", PNG),
    get:                               "→/packer →/packer  →/packer  →/packer  →/packer  →/packer  →/packer  →/packer",
    post:                              "→/packer →/packer  →/packer  →/packer  →/packer* →/packer  →/packer  →/packer" },
  // "Упаковано" (ADR 068): the packer's password only; staff sign-in opens nothing here either.
  "/packer/packed/:orderId": { url: (f) => `/packer/packed/${f.paidVictim.id}`, form: () => ({ back: "" }),
    get:                               "→/packer →/packer  →/packer  →/packer  →/packer  →/packer  →/packer  →/packer",
    post:                              "→/packer →/packer  →/packer  →/packer  →/packer* →/packer  →/packer  →/packer" },
  // The packer's order page (ADR 103): a scan of a code that is not ours is refused and changes nothing.
  "/packer/order/:orderId": { url: (f) => `/packer/order/${f.paidVictim.id}`, form: () => ({ intent: "scan", code: "1234567890" }),
    get:                               "→packer? →packer?  →packer?  →packer?  200       →packer?  →packer?  →packer?",
    post:                              "→/packer →/packer  →/packer  →/packer  422       →/packer  →/packer  →/packer" },
  // Labels as PDF and the workstation's label format (ADR 103).
  "/packer/pdf/bags/:orderId": { url: (f) => `/packer/pdf/bags/${f.orderA.id}`,
    get:                               "→packer? →packer?  →packer?  →packer?  200       →packer?  →packer?  →packer?" },
  "/packer/pdf/box/:orderId": { url: (f) => `/packer/pdf/box/${f.orderA.id}`,
    get:                               "→packer? →packer?  →packer?  →packer?  200       →packer?  →packer?  →packer?" },
  "/packer/labels": { form: () => ({ format: "pdf", back: "" }),
    get:                               "→/packer →/packer  →/packer  →/packer  →/packer  →/packer  →/packer  →/packer",
    post:                              "→/packer →/packer  →/packer  →/packer  →/packer  →/packer  →/packer  →/packer" },
  "/packer/logos/:folder": { url: (f) => `/packer/logos/${logoFolder(f.orderA.email!)}`,
    get:                               "403      403       403       403       200       403       403       403" },
  "/packer/logout": { fresh: true, form: () => ({}),
    get:                               "→/packer →/packer  →/packer  →/packer  →/packer  →/packer  →/packer  →/packer",
    post:                              "→/packer →/packer  →/packer  →/packer  →/packer  →/packer  →/packer  →/packer" },

  // Machine-to-machine: their own secret or signature, exempt from the cross-site check.
  "/api/cron": { crossSiteExempt: true, form: () => ({}),
    get:                               "405      405       405       405       405       405       405       405",
    post:                              "401      401       401       401       401       401       401       401" },
  "/api/webhooks/sandbox": { crossSiteExempt: true, form: () => ({ event: "payment.succeeded", id: "forged" }),
    get:                               "405      405       405       405       405       405       405       405",
    post:                              "400      400       400       400       400       400       400       400" },
  // Stripe and YooKassa are not configured outside production: their webhooks answer 404.
  "/api/webhooks/stripe": { crossSiteExempt: true, form: () => ({ type: "checkout.session.completed" }),
    get:                               "405      405       405       405       405       405       405       405",
    post:                              "404      404       404       404       404       404       404       404" },
  "/api/webhooks/yookassa": { crossSiteExempt: true, form: () => ({ event: "payment.succeeded" }),
    get:                               "405      405       405       405       405       405       405       405",
    post:                              "404      404       404       404       404       404       404       404" },
};

interface Outcome {
  token: string;
  mayChange: boolean;
}

function parseRow(cells: string): Outcome[] {
  const tokens = cells.trim().split(/\s+/);
  if (tokens.length !== ROLES.length) throw new Error(`expected ${ROLES.length} outcomes, got ${tokens.length}: ${cells}`);
  return tokens.map((token) => ({ token: token.replace(/\*$/, ""), mayChange: token.endsWith("*") }));
}

/** Whether a response matches an outcome token; the reason when not. */
function matches(token: string, response: { status: number; location: string | null }): boolean {
  if (!token.startsWith("→")) return String(response.status) === token;
  if (response.status < 300 || response.status > 399 || !response.location) return false;
  const location = response.location.replace(/^https?:\/\/[^/]+/, "");
  const target = token.slice(1);
  if (target === "auth") return location.startsWith("/auth?redirectTo=");
  if (target === "gate") return location.startsWith("/backoffice/login?redirectTo=");
  if (target === "packer?") return location.startsWith("/packer?redirectTo=");
  if (target.endsWith("?") || target.endsWith("/") || target.endsWith("=")) return location.startsWith(target) || location === target.replace(/[?/]$/, "");
  return location === target || location.startsWith(`${target}?`) || location.startsWith(`${target}#`);
}

/** Outcomes that refuse the visitor. */
const REFUSALS = new Set(["401", "403", "404", "405", "→auth", "→gate", "→packer?"]);

describe("access matrix over HTTP", () => {
  let t: TestDatabase;
  let app: TestApp;
  let fixture: Fixture;
  const jars = new Map<Role, CookieJar>();
  const users = new Map<Role, string>();
  const setCookies: string[] = [];
  let matrixCells = 0;
  /** The headers of every answer the matrix got, for the serving-rules check. */
  const served: Array<{ key: string; role: Role; method: "GET" | "POST"; status: number; headers: Headers }> = [];

  async function send(jar: CookieJar, url: string, init: { method: string; body?: Body | Buffer; headers?: Record<string, string> }) {
    const safe = init.method === "GET" || init.method === "HEAD";
    const headers: Record<string, string> = { Cookie: jar.header(), ...(safe ? {} : { Origin: app.url, "Sec-Fetch-Site": "same-origin" }), ...init.headers };
    const body = init.body === undefined ? undefined : init.body instanceof FormData ? init.body : Buffer.isBuffer(init.body) ? new Uint8Array(init.body) : new URLSearchParams(init.body);
    const response = await fetch(`${app.url}${url}`, { method: init.method, headers, body, redirect: "manual" });
    setCookies.push(...response.headers.getSetCookie());
    jar.store(response);
    return response;
  }

  function clone(jar: CookieJar): CookieJar {
    const copy = new CookieJar();
    for (const part of jar.header().split("; ").filter(Boolean)) {
      const index = part.indexOf("=");
      copy.set(part.slice(0, index), part.slice(index + 1));
    }
    return copy;
  }

  async function signedIn(email: string, roles: Array<"admin" | "manager"> = []) {
    const user = await t.db.insertInto("users").values({ email }).returning("id").executeTakeFirstOrThrow();
    for (const role of roles) await t.db.insertInto("user_roles").values({ user_id: user.id, role }).execute();
    return user.id;
  }

  async function sessionJar(userId: string): Promise<CookieJar> {
    const jar = new CookieJar();
    jar.set("__session", (await createUserSession(t.db, userId)).split(";")[0]!.split("=").slice(1).join("="));
    return jar;
  }

  async function gateJar(pathname: string, password: string, cookie: string): Promise<CookieJar> {
    const jar = new CookieJar();
    const response = await send(jar, pathname, { method: "POST", body: { password } });
    if (response.status !== 302 || !jar.has(cookie)) throw new Error(`${pathname} refused the password: ${response.status}`);
    return jar;
  }

  /** The browser of a role for one request: a copy, so cookies a response sets stay with that request. */
  async function browserOf(role: Role, fresh: boolean): Promise<CookieJar> {
    const userId = users.get(role);
    if (fresh && userId) return sessionJar(userId);
    return clone(jars.get(role)!);
  }

  /** Every table's rows and every stored file, hashed: equal before and after means nothing changed. */
  async function fingerprint(): Promise<string> {
    const tables = ["users", "user_roles", "sign_in_tokens", "orders", "order_codes", "order_status_history", "order_file_corrections", "orders_patients", "payments", "payment_events", "sandbox.payments", "invoices", "ftp_uploads_queue", "client_settings", "partner_codes", "partner_affiliates", "partner_payouts", "translations", "translations_version"];
    const parts = tables.map((table) => sql`select ${table}::text as name, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as hash from ${sql.table(table)} x`);
    const rows = await sql<{ name: string; hash: string }>`${sql.join(parts, sql` union all `)}`.execute(t.db);
    const files: string[] = [];
    const walk = (dir: string) => {
      if (!fs.existsSync(dir)) return;
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else files.push(`${path.relative(app.dataDir, full)}:${fs.statSync(full).size}`);
      }
    };
    walk(path.join(app.dataDir, "storage"));
    walk(path.join(app.dataDir, "ftp"));
    return JSON.stringify([rows.rows, files.sort()]);
  }

  /**
   * What a role must never see of another client's order: client A's for client B, the partner and
   * anonymous visitors; client B's for client A, the partner and anonymous visitors. An order id
   * counts only when the request did not carry it itself.
   */
  function forbiddenFor(role: Role, asked: string): Array<[string, string]> {
    const a = fixture.orderA;
    const b = fixture.orderB;
    const ofA = (["anon", "clientB", "partner"] as Role[]).includes(role) ? [a.email!, a.full_name!, a.address!, fixture.patientA.name, ...(asked.includes(a.id) ? [] : [a.id])] : [];
    const ofB = (["anon", "clientA", "partner"] as Role[]).includes(role) ? [b.email!, b.full_name!, fixture.patientB, ...(asked.includes(b.id) ? [] : [b.id])] : [];
    return [...ofA.map((secret) => ["A", secret] as [string, string]), ...ofB.map((secret) => ["B", secret] as [string, string])];
  }

  beforeAll(async () => {
    app = await startApp();
    t = app.database;

    const clientA = await signedIn("dr.alpha@klinika-alfa.test");
    const clientB = await signedIn("dr.beta@klinika-beta.test");
    const partner = await signedIn("partner@referral.test");
    const manager = await signedIn("manager@aligner.test", ["manager"]);
    const admin = await signedIn("admin@aligner.test", ["admin"]);
    const bystanderEmail = "bystander@clinic.test";
    await signedIn(bystanderEmail);
    users.set("clientA", clientA).set("clientB", clientB).set("partner", partner).set("manager", manager).set("admin", admin);
    jars.set("anon", new CookieJar());
    for (const role of ["clientA", "clientB", "partner", "manager", "admin"] as const) jars.set(role, await sessionJar(users.get(role)!));
    jars.set("packer", await gateJar("/packer", SECRETS.PACKER_PASSWORD, "packer_gate"));
    jars.set("office", await gateJar("/backoffice/login", SECRETS.BACKOFFICE_PASSWORD, "bo_gate"));

    const orderA = await buildOrderIn(t.db, "pending", { email: "dr.alpha@klinika-alfa.test", fullName: "Альфина Анна Аркадьевна", address: "Тверь, ул. Альфовская, д. 17" });
    const folder = `${orderA.code}_1`;
    const storagePath = `order_${orderA.id}/${folder}/aligners/upper_1.stl`;
    const stl = binaryStl(2);
    const patientA = await t.db
      .insertInto("orders_patients")
      .values({
        order_id: orderA.id,
        patient_name: "Альфредова Алевтина",
        folder_name: folder,
        matrix_files_info: "[]",
        aligner_files_info: JSON.stringify([{ originalName: "upper.stl", storagePath, url: `/files/orders/${storagePath}`, type: "model/stl", size: stl.length }]),
        retainer_files_info: "[]",
      })
      .returning(["id", "patient_name"])
      .executeTakeFirstOrThrow();
    const stored = path.join(app.dataDir, "storage", "orders", ...storagePath.split("/"));
    fs.mkdirSync(path.dirname(stored), { recursive: true });
    fs.writeFileSync(stored, stl);

    const orderB = await buildOrderIn(t.db, "paid", { email: "dr.beta@klinika-beta.test", fullName: "Бетова Белла Борисовна" });
    const patientB = "Бетховен Борис";
    await t.db.insertInto("orders_patients").values({ order_id: orderB.id, patient_name: patientB, folder_name: `${orderB.code}_1`, matrix_files_info: "[]", aligner_files_info: "[]", retainer_files_info: "[]" }).execute();
    const draftA = await buildOrder(t.db, { email: "dr.alpha@klinika-alfa.test", fullName: "Альфина Анна Аркадьевна", address: "Тверь, ул. Альфовская, д. 17" });
    await t.db.updateTable("orders").set({ wizard_step: 7 }).where("id", "=", draftA.id).execute();
    const draftPatient = await t.db
      .insertInto("orders_patients")
      .values({ order_id: draftA.id, patient_name: "Альфредова Алевтина", folder_name: `${draftA.code}_1`, matrix_files_info: "[]", aligner_files_info: "[]", retainer_files_info: "[]" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const victim = await buildOrder(t.db, { email: "walk-in@clinic.test", fullName: "Удаляемый Черновик" });
    const paidVictim = await buildOrderIn(t.db, "paid", { email: "walk-in@clinic.test", fullName: "Завершаемый Заказ" });

    // Client A's company asked for an invoice to pay by bank transfer (ADR 072).
    const invoiceA = await t.db
      .insertInto("invoices")
      .values({
        order_id: orderA.id,
        client_company: "ООО «Альфа-Клиника»",
        client_inn: "7707083893",
        supplier: JSON.stringify({ ...getConfig().invoiceSupplier }),
        lines: JSON.stringify([{ description: "Элайнеры", quantity: 1, price: 1250000 }]),
        total: 1250000,
        currency: "rub",
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    // Client A starts paying: the sandbox checkout every role then tries to open.
    const pay = await send(clone(jars.get("clientA")!), `/pay/${orderA.id}`, { method: "POST", body: {} });
    const paymentA = /\/payment\/sandbox\/([^/?#]+)/.exec(pay.headers.get("Location") ?? "")?.[1];
    if (!paymentA) throw new Error(`no sandbox checkout: ${pay.status} ${pay.headers.get("Location")}`);

    // The partner's code exists once they have asked for it on their cabinet's page.
    expect((await send(clone(jars.get("partner")!), "/partner", { method: "POST", body: { intent: "create" } })).status).toBe(302);
    const code = await t.db.selectFrom("partner_codes").select(["id", "code"]).where("user_email", "=", "partner@referral.test").executeTakeFirstOrThrow();

    fixture = { orderA, patientA: { id: patientA.id, name: patientA.patient_name }, fileUrlA: `/files/orders/${storagePath}`, paymentA, invoiceA: invoiceA.id, draftA: { id: draftA.id, patientId: draftPatient.id }, orderB, patientB, victim, paidVictim, partnerCode: code.code, partnerCodeId: code.id, bystanderEmail };
  });

  afterAll(async () => {
    await app?.close();
  });

  it("has one row for every route file, and a POST expectation exactly where there is an action", () => {
    const routes = routeFiles();
    const keys = routes.map(routeKey);
    expect(new Set(keys).size, "two route files with one key").toBe(keys.length);
    expect(keys.filter((key) => !(key in MATRIX)), "route files without a row in the access matrix").toEqual([]);
    expect(Object.keys(MATRIX).filter((key) => !keys.includes(key)), "rows without a route file").toEqual([]);
    const byKey = new Map(routes.map((route) => [routeKey(route), route] as const));
    const postMismatch = Object.entries(MATRIX)
      .filter(([key, row]) => Boolean(row.post) !== byKey.get(key)?.hasAction)
      .map(([key]) => key);
    expect(postMismatch, "rows whose POST expectation does not match the route's action").toEqual([]);
    // The flat-routes reading itself, on the names that need it.
    const pattern = (file: string) => routes.find((route) => route.file === file)?.pattern;
    expect(pattern("backoffice.test")).toBe("/backoffice/test");
    expect(pattern("($lang)._index.tsx")).toBe("/:lang?");
    expect(pattern("packer_.bags.$orderId.tsx")).toBe("/packer/bags/:orderId");
    expect(pattern("files.orders.$.ts")).toBe("/files/orders/*");
    expect(routeKey(routes.find((route) => route.file === "backoffice.tsx")!)).toBe("/backoffice (layout)");
  });

  it("answers every route × method × role as the table says, and a refusal changes nothing", { timeout: 300_000 }, async () => {
    const routes = new Map(routeFiles().map((route) => [routeKey(route), route] as const));
    const failures: string[] = [];
    const actual: Record<string, Partial<Record<"GET" | "POST", string[]>>> = {};
    let cells = 0;
    let refusals = 0;
    let before = await fingerprint();

    for (const [key, row] of Object.entries(MATRIX)) {
      const route = routes.get(key) as RouteFile;
      const url = row.url ? row.url(fixture) : route.pattern;
      for (const method of ["GET", "POST"] as const) {
        const expected = method === "GET" ? row.get : row.post;
        if (!expected) continue;
        const outcomes = parseRow(expected);
        const target = method === "POST" && route.index ? `${url}${url.includes("?") ? "&" : "?"}index` : url;
        const seen: string[] = [];
        // Sign-in links and passwords are limited per IP; the matrix sends more than a person would.
        await t.db.deleteFrom("rate_limits").execute();
        for (const [position, role] of ROLES.entries()) {
          const jar = await browserOf(role, Boolean(row.fresh));
          // A fresh session is a sign-in (users.last_sign_in_at): not the request's doing.
          if (row.fresh) before = await fingerprint();
          const body = method === "POST" ? row.form?.(fixture, role) : undefined;
          const response = await send(jar, target, { method, body, headers: method === "POST" ? row.headers?.(fixture) : undefined });
          const text = await response.text();
          const got = { status: response.status, location: response.headers.get("Location") };
          served.push({ key, role, method, status: response.status, headers: response.headers });
          const outcome = outcomes[position]!;
          cells++;
          seen.push(got.location ? `${got.status}→${got.location}` : String(got.status));
          const where = `${method} ${key} (${target}) as ${role}`;
          if (!matches(outcome.token, got)) failures.push(`${where}: expected ${outcome.token}, got ${got.status}${got.location ? ` → ${got.location}` : ""}`);
          if (response.status >= 500) failures.push(`${where}: server error ${response.status}`);
          if (!row.leakExempt?.roles.includes(role)) {
            for (const [client, secret] of forbiddenFor(role, `${target} ${body instanceof FormData ? "" : JSON.stringify(body ?? {})}`)) {
              if (text.includes(secret)) failures.push(`${where}: the body shows client ${client}'s ${secret}`);
            }
          }
          const after = await fingerprint();
          if (!outcome.mayChange && after !== before) failures.push(`${where}: changed stored state (${outcome.token} is not marked *)`);
          if (REFUSALS.has(outcome.token)) refusals++;
          before = after;
        }
        (actual[key] ??= {})[method] = seen;
      }
    }
    matrixCells = cells;
    console.log(`access matrix: ${cells} cells checked (${refusals} refusals) over ${Object.keys(MATRIX).length} routes × ${ROLES.length} roles`);
    if (failures.length) console.log(JSON.stringify(actual, null, 1));
    expect(failures).toEqual([]);
  });
  it("sends every HTML answer with a nonce-based Content-Security-Policy, every private page uncacheable, and no HSTS outside production", () => {
    // Pages that hold personal data (issue: cache rules by kind of page): never stored by a browser or proxy.
    const PRIVATE = /^\/(order|cabinet|partner|pay\/|payment\/|backoffice|packer|files\/|send-test|uploads)/;
    const failures: string[] = [];
    let html = 0;
    for (const answer of served) {
      const where = `${answer.method} ${answer.key} as ${answer.role} (${answer.status})`;
      const csp = answer.headers.get("Content-Security-Policy") ?? "";
      if ((answer.headers.get("Content-Type") ?? "").startsWith("text/html")) {
        html++;
        const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? "";
        if (!/'nonce-[A-Za-z0-9+/=]{16,}'/.test(scriptSrc)) failures.push(`${where}: script-src without a nonce: ${scriptSrc || "(no policy)"}`);
        if (/unsafe-inline|unsafe-eval/.test(scriptSrc)) failures.push(`${where}: script-src allows ${scriptSrc}`);
        for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"]) if (!csp.includes(directive)) failures.push(`${where}: no ${directive}`);
      }
      // Clinic logos on the packer's labels are no one's personal data: kept an hour by the packing PC's browser (private).
      if (PRIVATE.test(answer.key) && answer.key !== "/packer/logos/:folder" && !/\bno-store\b/.test(answer.headers.get("Cache-Control") ?? "")) failures.push(`${where}: Cache-Control ${answer.headers.get("Cache-Control")}`);
      if (answer.headers.has("Strict-Transport-Security")) failures.push(`${where}: HSTS outside production`);
      if (!answer.headers.get("X-Request-Id")) failures.push(`${where}: no X-Request-Id`);
    }
    console.log(`serving headers: ${served.length} answers checked, ${html} of them HTML`);
    expect(html).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });

  it("serves the landing and legal pages to anonymous visitors with an ETag, and answers a repeat with 304", async () => {
    for (const pathname of ["/", "/en", "/de", "/fr", "/es", "/it", "/privacy", "/terms", "/public-offer", "/data-consent"]) {
      // The first visit to /en may remember the language in a cookie (a per-visitor answer); the browser sends it after.
      const jar = new CookieJar();
      // A HEAD first: its empty answer must never become the page later visitors get.
      await (await send(jar, pathname, { method: "HEAD" })).arrayBuffer();
      await (await send(jar, pathname, { method: "GET" })).arrayBuffer();
      const get = (headers: Record<string, string> = {}) => send(jar, pathname, { method: "GET", headers });
      const first = await get();
      const body = await first.text();
      expect(first.status, pathname).toBe(200);
      expect(body, pathname).toContain("</html>");
      const etag = first.headers.get("ETag");
      expect(etag, pathname).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
      expect(first.headers.get("Cache-Control"), pathname).toMatch(/^public, max-age=\d+$/);
      // Each answer has its own nonce, yet the page and its validator stay the same.
      const second = await get();
      expect(second.headers.get("ETag"), pathname).toBe(etag);
      expect(second.headers.get("Content-Security-Policy"), pathname).not.toBe(first.headers.get("Content-Security-Policy"));
      const nonce = /'nonce-([^']+)'/.exec(first.headers.get("Content-Security-Policy") ?? "")?.[1];
      expect(body.split("<script").length, `${pathname}: every inline script carries the nonce`).toBe(body.split(`<script nonce="${nonce}"`).length);
      await second.arrayBuffer();
      const again = await get({ "If-None-Match": etag! });
      expect(again.status, pathname).toBe(304);
      expect(await again.text(), pathname).toBe("");
      // The stored page keeps the policy it came with: a 304 must not replace it with a new nonce.
      expect(again.headers.get("Content-Security-Policy"), pathname).toBeNull();
      expect((await get({ "If-None-Match": '"something-else"' })).status, pathname).toBe(200);
    }
    // A signed-in visitor's landing shows their account: private, no validator.
    const signedIn = await send(clone(jars.get("clientA")!), "/", { method: "GET" });
    await signedIn.arrayBuffer();
    expect(signedIn.headers.get("Cache-Control")).toBe("private, no-store");
    expect(signedIn.headers.get("ETag")).toBeNull();

    // Two clinics, the same URLs, asked in turn and again: each gets its own page every time — no
    // personal page is kept and served to the other.
    const a = fixture.orderA.email!;
    const b = fixture.orderB.email!;
    for (let round = 0; round < 3; round++) {
      for (const [role, own, other] of [["clientA", a, b], ["clientB", b, a]] as const) {
        for (const pathname of ["/cabinet", "/", "/privacy"]) {
          const page = await send(clone(jars.get(role)!), pathname, { method: "GET" });
          const html = await page.text();
          expect(page.headers.get("Cache-Control"), `${role} ${pathname}`).toBe("private, no-store");
          if (pathname === "/cabinet") expect(html, `${role} ${pathname}`).toContain(own);
          expect(html, `${role} ${pathname}`).not.toContain(other);
        }
      }
    }
  });

  it("answers malformed and unknown ids in every parameterised route with a 4xx or a redirect, never a server error", { timeout: 300_000 }, async () => {
    const routes = new Map(routeFiles().map((route) => [routeKey(route), route] as const));
    const ids = [fixture.orderA.id, fixture.orderB.id, fixture.victim.id, fixture.paidVictim.id, fixture.paymentA, fixture.partnerCode, logoFolder(fixture.orderA.email!)];
    const BAD = ["not-an-id", "00000000-0000-4000-8000-000000000000", "%27%3B--", "..%2F..%2Fetc", "x".repeat(300)];
    const failures: string[] = [];
    let cells = 0;
    for (const [key, row] of Object.entries(MATRIX)) {
      if (!row.url) continue;
      const route = routes.get(key)!;
      const url = row.url(fixture);
      const id = ids.find((candidate) => url.includes(candidate) || url.includes(encodeURIComponent(candidate)));
      if (!id) continue;
      for (const bad of BAD) {
        const badUrl = url.split(id).join(bad);
        const target = route.index ? `${badUrl}${badUrl.includes("?") ? "&" : "?"}index` : badUrl;
        await t.db.deleteFrom("rate_limits").execute();
        for (const method of row.post ? (["GET", "POST"] as const) : (["GET"] as const)) {
          // One visitor past each kind of check: nobody, the order's owner, the packer, an admin.
          await Promise.all(
            (["anon", "clientA", "packer", "admin"] as const).map(async (role) => {
              const jar = await browserOf(role, Boolean(row.fresh));
              const body = method === "POST" ? row.form?.(fixture, role) : undefined;
              const response = await send(jar, target, { method, body, headers: method === "POST" ? row.headers?.(fixture) : undefined });
              await response.arrayBuffer();
              cells++;
              if (response.status >= 500) failures.push(`${method} ${target} as ${role}: ${response.status}`);
            }),
          );
        }
      }
    }
    console.log(`malformed ids: ${cells} cells checked`);
    matrixCells += cells;
    expect(failures).toEqual([]);
  });

  it("answers single-fetch data requests (/path.data) by the same rules as the page", async () => {
    const failures: string[] = [];
    let cells = 0;
    for (const [key, row] of Object.entries(MATRIX)) {
      const url = new URL(row.url ? row.url(fixture) : routeFiles().find((route) => routeKey(route) === key)!.pattern, "http://local");
      const dataUrl = `${url.pathname === "/" ? "/_root" : url.pathname.replace(/\/$/, "")}.data${url.search}`;
      const outcomes = parseRow(row.get);
      const answers = await Promise.all(
        ROLES.map(async (role) => {
          const response = await send(await browserOf(role, Boolean(row.fresh)), dataUrl, { method: "GET" });
          return { response, text: await response.text() };
        }),
      );
      for (const [position, role] of ROLES.entries()) {
        const { response, text } = answers[position]!;
        cells++;
        const where = `GET ${dataUrl} as ${role}`;
        if (response.status >= 500) failures.push(`${where}: ${response.status}`);
        if (!row.leakExempt?.roles.includes(role)) {
          for (const [client, secret] of forbiddenFor(role, dataUrl)) if (text.includes(secret)) failures.push(`${where}: shows client ${client}'s ${secret}`);
        }
        // A visitor the page refuses gets no data either.
        if (REFUSALS.has(outcomes[position]!.token) && response.status === 200 && !/SingleFetchRedirect/.test(text)) failures.push(`${where}: 200 with data where the page answers ${outcomes[position]!.token}`);
      }
    }
    console.log(`data requests: ${cells} cells checked`);
    matrixCells += cells;
    expect(failures).toEqual([]);
  });

  it("keeps everyone but the order's own visitors and staff out of a resumable upload (HEAD, PATCH, DELETE, finish)", async () => {
    const stl = binaryStl(2);
    const owner = clone(jars.get("clientA")!);
    const created = await send(owner, "/uploads/tus", { method: "POST", headers: tusFor(fixture.draftA.id, fixture.draftA.patientId, stl.length) });
    expect(created.status).toBe(201);
    const upload = new URL(created.headers.get("Location")!, app.url).pathname;
    const uploadId = upload.split("/").pop()!;
    const failures: string[] = [];
    let before = await fingerprint();
    let cells = 0;
    for (const role of ["anon", "clientB", "partner", "packer"] as const) {
      for (const [method, extra, body] of [
        ["HEAD", {}, undefined],
        ["PATCH", { "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }, stl],
        ["DELETE", {}, undefined],
      ] as const) {
        const response = await send(clone(jars.get(role)!), upload, { method, headers: { "Tus-Resumable": "1.0.0", ...extra }, body });
        await response.arrayBuffer();
        cells++;
        if (response.status !== 404) failures.push(`${method} ${upload} as ${role}: expected 404, got ${response.status}`);
      }
      const finish = await send(clone(jars.get(role)!), "/uploads/finish", { method: "POST", body: { id: uploadId, uploadKey: "matrix-upload-key-1" } });
      await finish.arrayBuffer();
      cells++;
      if (finish.status !== 404) failures.push(`POST /uploads/finish as ${role}: expected 404, got ${finish.status}`);
      const after = await fingerprint();
      if (after !== before) failures.push(`${role}: changed stored state`);
      before = after;
    }
    expect(failures).toEqual([]);
    const head = await send(owner, upload, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("Upload-Offset")).toBe("0");
    const manager = await send(clone(jars.get("manager")!), upload, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } });
    expect(manager.status).toBe(200);
    const gone = await send(owner, upload, { method: "DELETE", headers: { "Tus-Resumable": "1.0.0" } });
    expect(gone.status).toBe(204);
    console.log(`resumable uploads: ${cells} cells checked`);
    matrixCells += cells;
  });

  it("never sends a visitor to another site, nor fails, on a crafted return address", async () => {
    // Each would land off-site or break the Location header if taken as it is.
    const CRAFTED = ["//evil.example", "/\\evil.example", "https://evil.example", "/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "/\u0000/x"];
    const failures: string[] = [];
    let cells = 0;
    for (const crafted of CRAFTED) {
      const q = encodeURIComponent(crafted);
      const cases: Array<[Role, string, Record<string, string> | undefined]> = [
        ["clientA", `/auth?redirectTo=${q}`, undefined],
        ["anon", "/auth?index", { email: "return@clinic.test", redirectTo: crafted }],
        ["admin", `/backoffice/login?redirectTo=${q}`, undefined],
        ["anon", "/backoffice/login", { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: crafted }],
        ["anon", "/packer", { password: SECRETS.PACKER_PASSWORD, redirectTo: crafted }],
        ["anon", "/language", { lng: "en", redirectTo: crafted }],
        ["anon", "/cookies", { redirectTo: crafted }],
        ["admin", `/backoffice/orders/${fixture.orderB.id}/status`, { to: "draft", back: crafted }],
        ["admin", "/backoffice/orders/00000000-0000-4000-8000-000000000000/delete", { back: crafted }],
      ];
      for (const [role, url, form] of cases) {
        await t.db.deleteFrom("rate_limits").execute();
        const response = await send(clone(jars.get(role)!), url, { method: form ? "POST" : "GET", body: form });
        await response.arrayBuffer();
        cells++;
        const where = `${form ? "POST" : "GET"} ${url} as ${role} with ${JSON.stringify(crafted)}`;
        const location = response.headers.get("Location");
        // A browser reads the Location with the URL parser, which drops tabs and newlines.
        if (response.status >= 500) failures.push(`${where}: ${response.status}`);
        else if (location && new URL(location, app.url).origin !== app.url) failures.push(`${where}: sent to ${JSON.stringify(location)}`);
      }
    }
    // The sign-in link keeps a safe return address too (it is used after the link is opened).
    const stored = await t.db.selectFrom("sign_in_tokens").select("redirect_to").where("email", "=", "return@clinic.test").execute();
    for (const { redirect_to } of stored) if (redirect_to && new URL(redirect_to, app.url).origin !== app.url) failures.push(`sign-in link returns to ${JSON.stringify(redirect_to)}`);
    console.log(`return addresses: ${cells} cells checked`);
    matrixCells += cells;
    expect(failures).toEqual([]);
  });

  it("opens an order by payment link only with that order's own token, and the token opens nothing else", async () => {
    const config = getConfig();
    const a = fixture.orderA;
    const linkA = paymentLinkPath(config, a.id);
    const tokenA = new URL(linkA, app.url).searchParams.get("t")!;
    const tokenB = new URL(paymentLinkPath(config, fixture.orderB.id), app.url).searchParams.get("t")!;
    const tampered = `${tokenA.slice(0, -1)}${tokenA.endsWith("A") ? "B" : "A"}`;
    const failures: string[] = [];
    let cells = 0;
    let before = await fingerprint();
    const expectations: Array<[string, "GET" | "POST", number]> = [
      [linkA, "GET", 200],
      [`/pay/${a.id}?t=${encodeURIComponent(tokenB)}`, "GET", 404],
      [`/pay/${a.id}?t=${encodeURIComponent(tampered)}`, "GET", 404],
      [`/pay/${a.id}?t=`, "GET", 404],
      [`/pay/${a.id}?t=${encodeURIComponent(tokenB)}`, "POST", 404],
      [`/pay/${a.id}?t=${encodeURIComponent(tampered)}`, "POST", 404],
      // The token is for paying: the wizard, the files and the upload status stay closed.
      [`/order?id=${a.id}&t=${encodeURIComponent(tokenA)}`, "GET", 404],
      [`${fixture.fileUrlA}?t=${encodeURIComponent(tokenA)}`, "GET", 404],
      [`/uploads/status?order=${a.id}&t=${encodeURIComponent(tokenA)}`, "GET", 404],
      // The return page: its own token shows this order's result; the link's token or another order's does not.
      [paymentResultPath(config, a.id), "GET", 200],
      [`/payment/success?orderId=${a.id}&r=${encodeURIComponent(tokenA)}`, "GET", 404],
      [`/payment/success?orderId=${a.id}&r=${new URL(paymentResultPath(config, fixture.orderB.id), app.url).searchParams.get("r")}`, "GET", 404],
    ];
    for (const role of ["anon", "clientB", "partner"] as const) {
      for (const [url, method, status] of expectations) {
        const response = await send(clone(jars.get(role)!), url, { method, body: method === "POST" ? {} : undefined });
        const text = await response.text();
        cells++;
        if (response.status !== status) failures.push(`${method} ${url} as ${role}: expected ${status}, got ${response.status}`);
        if (status !== 200 && (text.includes(a.full_name!) || text.includes(a.address!) || text.includes(fixture.patientA.name))) failures.push(`${method} ${url} as ${role}: shows client A's order`);
        const after = await fingerprint();
        if (after !== before) failures.push(`${method} ${url} as ${role}: changed stored state`);
        before = after;
      }
    }
    console.log(`payment links: ${cells} cells checked`);
    matrixCells += cells;
    expect(failures).toEqual([]);
  });

  it("shows the packer no drafts: not in the list, not by search or status, not as labels", async () => {
    const draft = await buildOrder(t.db, { email: "draft-only@clinic.test", fullName: "Черновикова Скрытая" });
    const packer = clone(jars.get("packer")!);
    const failures: string[] = [];
    for (const url of ["/packer", `/packer?q=${encodeURIComponent("Черновикова")}`, "/packer?status=draft", `/packer?q=${draft.id.slice(0, 8)}`]) {
      const response = await send(packer, url, { method: "GET" });
      const text = await response.text();
      if (response.status !== 200) failures.push(`GET ${url}: ${response.status}`);
      if (text.includes("Черновикова Скрытая") || text.includes("draft-only@clinic.test") || text.includes(draft.id)) failures.push(`GET ${url}: shows the draft`);
    }
    for (const url of [`/packer/bags/${draft.id}`, `/packer/box/${draft.id}`]) {
      const response = await send(packer, url, { method: "GET" });
      await response.arrayBuffer();
      if (response.status !== 404) failures.push(`GET ${url}: expected 404, got ${response.status}`);
    }
    matrixCells += 6;
    expect(failures).toEqual([]);
  });

  it("refuses every cross-site form POST before the route, and it changes nothing; webhooks and cron are the exceptions", async () => {
    const CROSS_SITE_VARIANTS: Array<Record<string, string>> = [
      { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      // A browser that sends no Origin still says where the form came from.
      { "Sec-Fetch-Site": "cross-site" },
      // Sandboxed frames and some redirects send the opaque origin.
      { Origin: "null", "Sec-Fetch-Site": "cross-site" },
    ];
    const routes = new Map(routeFiles().map((route) => [routeKey(route), route] as const));
    const failures: string[] = [];
    let cells = 0;
    let before = await fingerprint();
    for (const [key, row] of Object.entries(MATRIX)) {
      if (!row.post) continue;
      const route = routes.get(key)!;
      const outcomes = parseRow(row.post);
      // The most trusted visitor the route lets act: what a forged form would ride on.
      const position = [...ROLES.keys()].reverse().find((index) => !REFUSALS.has(outcomes[index]!.token)) ?? 0;
      const role = ROLES[position]!;
      const url = row.url ? row.url(fixture) : route.pattern;
      const target = route.index ? `${url}${url.includes("?") ? "&" : "?"}index` : url;
      for (const variant of CROSS_SITE_VARIANTS) {
        await t.db.deleteFrom("rate_limits").execute();
        const jar = await browserOf(role, Boolean(row.fresh));
        if (row.fresh) before = await fingerprint();
        const body = row.form?.(fixture, role);
        const headers: Record<string, string> = { Cookie: jar.header(), ...(row.headers?.(fixture) ?? {}), ...variant };
        const response = await fetch(`${app.url}${target}`, {
          method: "POST",
          headers,
          body: body === undefined ? undefined : body instanceof FormData ? body : new URLSearchParams(body),
          redirect: "manual",
        });
        const text = await response.text();
        const where = `cross-site POST ${key} as ${role} with ${JSON.stringify(variant)}`;
        cells++;
        const refusedBySite = response.status === 403 && text.includes("Request refused: it did not come from this site");
        if (row.crossSiteExempt) {
          // Reaches the route, which answers exactly as to a same-site request.
          if (refusedBySite || !matches(outcomes[position]!.token, { status: response.status, location: response.headers.get("Location") })) {
            failures.push(`${where}: expected the route's own answer ${outcomes[position]!.token}, got ${response.status}`);
          }
        } else {
          if (!refusedBySite) failures.push(`${where}: expected 403 from the cross-site check, got ${response.status}`);
          if (response.headers.getSetCookie().length) failures.push(`${where}: set cookies ${response.headers.getSetCookie().join(" | ")}`);
        }
        const after = await fingerprint();
        if (after !== before && !(row.crossSiteExempt && outcomes[position]!.mayChange)) failures.push(`${where}: changed stored state`);
        before = after;
      }
    }
    console.log(`cross-site matrix: ${cells} cells checked`);
    matrixCells += cells;
    expect(failures).toEqual([]);
    // The exempt routes are exactly the documented ones (DESIGN §4.22).
    expect(
      Object.entries(MATRIX)
        .filter(([, row]) => row.crossSiteExempt)
        .map(([key]) => key)
        .sort(),
    ).toEqual(["/api/cron", "/api/webhooks/sandbox", "/api/webhooks/stripe", "/api/webhooks/yookassa"]);
    // With its secret, cron runs for a cross-site caller too: the secret is its guard.
    const cron = await fetch(`${app.url}/api/cron`, { method: "POST", headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", Authorization: `Bearer ${SECRETS.CRON_SECRET}` } });
    expect(cron.status).toBe(200);
    expect(await cron.json()).toMatchObject({ ok: true });
  });

  it("sets every cookie HttpOnly and SameSite=Lax (not Secure outside production)", async () => {
    // The wizard's first "next" creates a draft and remembers it in this browser.
    const draft = await send(new CookieJar(), "/order", { method: "POST", body: { intent: "next" } });
    expect(draft.status).toBe(302);
    const names = new Set(setCookies.map((header) => header.split("=")[0]!));
    for (const name of ["__session", "bo_gate", "packer_gate", "toast", "lng", "cookie_ok", "partner", "my_orders", "current_order"]) expect(names, name).toContain(name);
    for (const header of setCookies) {
      expect(header, header).toMatch(/;\s*HttpOnly/i);
      expect(header, header).toMatch(/;\s*SameSite=(Lax|Strict)/i);
      expect(header, header).not.toMatch(/;\s*Secure/i);
    }
    console.log(`cookies: ${setCookies.length} Set-Cookie headers of ${names.size} cookies checked`);
  });
  it("marks every cookie Secure and sends HSTS with APP_ENV=production", { timeout: 300_000 }, async () => {
    // Strict mode starts only with every real service configured; S3 is checked at start (buckets),
    // the others are contacted on first use, which these requests never reach.
    const s3 = await startS3Server();
    let strict: TestApp | undefined;
    try {
      strict = await startApp({
        database: t,
        env: {
          APP_ENV: "production",
          ...s3AppEnv(s3),
          SFTP_URL: "sftp://files@127.0.0.1:1",
          SMTP_URL: "smtp://127.0.0.1:1",
          YOOKASSA_SHOP_ID: "123456",
          YOOKASSA_SECRET_KEY: "test_yookassa_secret",
          STRIPE_SECRET_KEY: "sk_test_access_matrix",
          STRIPE_WEBHOOK_SECRET: "whsec_access_matrix",
          ...Object.fromEntries(
            ["DOMESTIC", "INTERNATIONAL"].flatMap((market) => [
              [`CONTACTS_${market}_MESSENGER_NUMBER`, "+7 900 000-00-01"],
              [`CONTACTS_${market}_MESSENGER_LINK`, "https://wa.me/79000000001"],
              [`CONTACTS_${market}_SUPPORT_EMAIL`, "support@aligner.test"],
              [`CONTACTS_${market}_WHATSAPP_NUMBER`, "+7 900 000-00-01"],
            ]),
          ),
          ...COMPANY_INTERNATIONAL,
          ...INVOICE_SUPPLIER,
        },
      });
      const headers: string[] = [];
      const post = async (jar: CookieJar, pathname: string, form: Record<string, string>) => {
        const response = await fetch(`${strict!.url}${pathname}`, { method: "POST", headers: { Cookie: jar.header(), Origin: strict!.url }, body: new URLSearchParams(form), redirect: "manual" });
        headers.push(...response.headers.getSetCookie());
        jar.store(response);
        return response;
      };
      const landing = await fetch(`${strict.url}/`);
      await landing.arrayBuffer();
      expect(landing.headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
      expect(landing.headers.get("Content-Security-Policy")).toContain("upgrade-insecure-requests");
      const browser = new CookieJar();
      expect((await post(browser, "/backoffice/login", { password: SECRETS.BACKOFFICE_PASSWORD })).status).toBe(302);
      expect((await post(browser, "/packer", { password: SECRETS.PACKER_PASSWORD })).status).toBe(302);
      // A sign-in link as the mail would carry it.
      const token = await signInToken(t.db, SECRETS.SESSION_SECRET, "dr.alpha@klinika-alfa.test");
      const signIn = await post(browser, "/auth/verify", { token });
      expect(signIn.status).toBe(302);
      expect(signIn.headers.get("Location")).toBe("/cabinet");
      expect((await post(browser, "/language", { lng: "en", redirectTo: "/" })).status).toBe(302);
      expect((await post(browser, "/cookies", { redirectTo: "/" })).status).toBe(302);
      expect((await post(browser, "/order", { intent: "next" })).status).toBe(302);
      const partner = await fetch(`${strict.url}/${fixture.partnerCode}`, { redirect: "manual" });
      headers.push(...partner.headers.getSetCookie());
      expect((await post(browser, "/auth/sign-out", {})).status).toBe(302);

      const names = new Set(headers.map((header) => header.split("=")[0]!));
      for (const name of ["__session", "bo_gate", "packer_gate", "toast", "lng", "cookie_ok", "partner", "my_orders", "current_order"]) expect(names, name).toContain(name);
      for (const header of headers) {
        expect(header, header).toMatch(/;\s*Secure/i);
        expect(header, header).toMatch(/;\s*HttpOnly/i);
        expect(header, header).toMatch(/;\s*SameSite=(Lax|Strict)/i);
      }
      console.log(`production cookies: ${headers.length} Set-Cookie headers of ${names.size} cookies checked; ${matrixCells} request cells in all`);
    } finally {
      await strict?.close();
      await s3.stop();
    }
  });
});
