import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/modules/auth/guards.server";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { limitKey } from "~/modules/http/request/client-address";
import { getRequestContext, getRequestTranslator } from "~/modules/http/request/request-context.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { rememberOrderHeaders } from "~/modules/orders/browser-orders.server";
import { declaredOrGuessed } from "~/modules/orders/declaration";
import { OrderCodeExhaustedError } from "~/modules/orders/order-codes.server";
import { orderSender, UnpaidOrdersExceeded } from "~/modules/orders/order-senders.server";
import { uploadAllowanceOf } from "~/modules/uploads/upload-quota.server";
import { longOrderNumber } from "~/modules/orders/orders.server";
import { hitRateLimit } from "~/modules/security/rate-limit.server";
import { getStorage } from "~/modules/storage/storage.server";
import { calculateOrderPrice } from "~/modules/pricing/calculate";
import { conditionsOf } from "~/modules/pricing/order-price.server";
import { isNewCustomer } from "~/modules/orders/customers.server";
import { formatMoney } from "~/modules/money/format";
import type { DB } from "~/modules/db/db.server";
import type { AgainSource } from "./again.server";
import { AGAIN_KINDS, AGAIN_PLANS, againSchema, chosenFilesProblem } from "./again";
import { againSource, reusableFiles, startOrderAgain } from "./again.server";
import { DRAFT_WINDOW_SECONDS } from "./intents/create-order.server";

/**
 * "Заказать снова" (ADR 071): from a patient of one of the clinic's past orders, a plain form — what
 * to order (replacement aligners, a retainer, a new stage) and which of the patient's files to reuse
 * — that starts a new draft and opens the wizard where the doctor is needed. Only the signed-in
 * clinic whose order it is: anyone else gets 404, as if it did not exist.
 */

const notFound = () => new Response("Not found", { status: 404 });

/** The kinds of files some order may reuse (aligner and retainer models; a matrix never). */
const OFFERED_TYPES = new Set(AGAIN_KINDS.flatMap((kind) => AGAIN_PLANS[kind].choosesFrom));

async function openSource(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const user = await requireUser(request, context);
  const db = await getDb();
  const source = await againSource(db, user.email, params.orderId ?? "", params.patientId ?? "");
  if (!source) throw notFound();
  return { user, db, source };
}

/** No order has this id: the new-customer rule is asked about the clinic's orders as they are. */
const NO_ORDER = "00000000-0000-0000-0000-000000000000";

/**
 * The minimum-order rule with the totals to expect (issue 57): two replacement aligners of the
 * patient's material, and one retainer, priced by the one calculation with the clinic's conditions,
 * and how many aligners still cost the minimum. Said before the doctor confirms.
 */
async function minimumOrderEstimates(db: DB, email: string, source: AgainSource, language: string) {
  const [conditions, isNew] = await Promise.all([conditionsOf(db, email), isNewCustomer(db, email, NO_ORDER)]);
  const currency = source.order.currency;
  const price = (alignerFiles: number, retainerFiles: number) =>
    calculateOrderPrice({
      currency,
      conditions,
      isNewCustomer: isNew,
      patients: [{ id: source.patient.id, name: source.patient.patient_name, materialType: source.patient.material_type, matrixType: source.patient.matrix_type, alignerFiles, matrixFiles: 0, retainerFiles }],
    });
  const money = (amount: number) => formatMoney(amount, currency, language);
  const example = (alignerFiles: number, retainerFiles: number) => {
    const breakdown = price(alignerFiles, retainerFiles);
    return { total: money(breakdown.total), fee: breakdown.serviceFee > 0 ? money(breakdown.serviceFee) : null };
  };
  // The most aligners that still come to the minimum (none when even one passes it); bounded by an order's files.
  let upTo = 0;
  while (upTo < 300 && price(upTo + 1, 0).serviceFee > 0) upTo += 1;
  return {
    minimum: money(price(0, 0).minimumOrder),
    upTo,
    aligners: { count: 2, ...example(2, 0) },
    retainer: example(0, 1),
  };
}

export async function loadAgainPage({ request, params, context }: LoaderFunctionArgs) {
  const { source, user, db } = await openSource(request, context, params);
  const { language } = await getRequestContext(request, context);
  const t = await getRequestTranslator(request, context);
  const number = longOrderNumber(source.order.id);
  const files = reusableFiles(source).filter((file) => OFFERED_TYPES.has(file.type));
  return {
    title: t("orderAgain.heading", { patient: source.patient.patient_name }),
    number,
    createdAt: source.order.created_at.toISOString(),
    patient: source.patient.patient_name,
    kinds: AGAIN_KINDS,
    // The kind offered first: replacement where there are aligners to replace, else a new stage.
    suggested: files.some((file) => file.type === "aligners") ? ("replacement" as const) : ("new_stage" as const),
    filesRemoved: source.order.storage_removed_at !== null,
    minimumOrder: await minimumOrderEstimates(db, user.email, source, language),
    files: files.map((file) => {
      const facts = declaredOrGuessed({ name: file.originalName, jaw: file.jaw, stepNumber: file.stepNumber, confirmed: file.confirmed });
      return { type: file.type, path: file.storagePath, name: file.originalName, size: file.size, jaw: facts.jaw, step: facts.step };
    }),
  };
}

export async function againPageAction({ request, params, context }: ActionFunctionArgs) {
  const { user, db, source } = await openSource(request, context, params);
  const submission = await readSubmission(request, context, againSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { market, language, viewer, clientAddress } = await getRequestContext(request, context);
  const refuse = (problem: string, status = 400, headers?: Record<string, string>) => data(submission.reply({ fieldErrors: { files: [problem] } }), { status, headers });

  const { kind, files } = submission.value;
  // The form's own mistakes first: they cost no draft.
  const mistake = chosenFilesProblem(kind, files, reusableFiles(source));
  if (mistake) return refuse(mistake);

  // A new draft, counted as every new draft is (DRAFTS_PER_IP_DAY, ADR 038).
  const limit = await hitRateLimit(db, limitKey("drafts", { clientAddress, accountEmail: user.email }), getConfig().draftsPerIpDay, DRAFT_WINDOW_SECONDS);
  if (!limit.allowed) return refuse("wizard.errors.draftLimit", 429, { "Retry-After": String(limit.retryAfterSeconds) });

  let result;
  try {
    result = await startOrderAgain(db, getStorage(), source, {
      kind,
      chosen: files,
      market,
      language,
      actor: { kind: "customer", label: user.email },
      sender: orderSender({ clientAddress, accountEmail: user.email }),
      // The copies are charged as the clinic's uploads are (ADR 082); staff's are not counted.
      allowance: uploadAllowanceOf({ userEmail: user.email, isStaff: viewer.isStaff }, clientAddress),
      limits: getConfig().uploads,
    });
  } catch (error) {
    if (error instanceof OrderCodeExhaustedError) return refuse("wizard.errors.noOrderCode", 409);
    if (error instanceof UnpaidOrdersExceeded) return refuse("orderAgain.errors.unpaidLimit", 429, { "Retry-After": String(error.retryAfterSeconds) });
    throw error;
  }
  if (!result.ok) return refuse(result.problem, result.status, result.retryAfterSeconds === undefined ? undefined : { "Retry-After": String(result.retryAfterSeconds) });
  return redirectWithToast(
    "/order",
    { type: "success", title: "orderAgain.toasts.startedTitle", description: `orderAgain.toasts.started.${kind}`, values: { number: longOrderNumber(source.order.id) } },
    { headers: await rememberOrderHeaders(viewer.browserOrderIds, result.order.id, true) },
  );
}
