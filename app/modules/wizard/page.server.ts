import { data, redirect } from "@remix-run/node";
import { isMultipartRequest, parseMultipartFormData } from "~/modules/uploads/multipart.server";
import type { FileType, Order, Patient } from "~db/schema";
import type { SessionUser } from "~/modules/auth/session.server";
import { getConfig } from "~/modules/config/config.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { cookies } from "~/modules/http/cookies.server";
import { getRequestContext, type Viewer } from "~/modules/http/request-context.server";
import { badRequest, readFormData } from "~/modules/http/request.server";
import { failureCause } from "~/modules/http/section.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { redirectWithToast, type Toast } from "~/modules/http/toast.server";
import { MARKET_TRAITS, type Market } from "~/modules/market/market";
import { publicOrigin } from "~/modules/market/market.server";
import { canOpenOrder } from "~/modules/orders/access";
import { changeOrderStatus, createOrder, findOrder, longOrderNumber, OrderTransitionError, shortOrderNumber } from "~/modules/orders/orders.server";
import type { Actor } from "~/modules/orders/status";
import { calculateOrderPrice, paymentLines, type PriceBreakdown } from "~/modules/pricing/calculate";
import { PRICE_SETS } from "~/modules/pricing/price-sets";
import { paymentFailureToast, previousAttemptLines, startPayment as startOrderPayment } from "~/modules/payments/payments.server";
import type { PaymentLine } from "~/modules/payments/provider";
import { getStorage } from "~/modules/storage/storage.server";
import { discardUnrecorded } from "~/modules/uploads/unrecorded.server";
import { createStlUploadHandler, type UploadResult } from "~/modules/uploads/upload-handler.server";
import type { ScanSummary } from "~/modules/uploads/scan";
import { storageKey, storedFileName } from "~/modules/uploads/file-names";
import { rateLimitUploadBytes } from "./upload-quota.server";
import { clampStep, isSkippedStep, navigate, STEP_FILE_TYPE, type WizardAction } from "./navigation";
import { forgetCurrentOrderHeader, rememberOrderHeaders } from "./order-cookies.server";
import { checkContacts, checkDelivery, type FieldErrors, fieldProblem, type LimitedField, readChoice, readContacts, readDelivery, readText } from "./validation";
import {
  addPatient,
  appendFiles,
  filesOf,
  isNewCustomer,
  lastOrderContacts,
  linkPartnerAtHandOff,
  listPatients,
  ORDER_BYTES_LIMIT,
  ORDER_FILE_LIMIT,
  OrderFrozenError,
  orderFileUsage,
  queueStatuses,
  type RecordedFile,
  removeFile,
  setWizardStep,
  skipsOf,
  updateDraft,
  updatePatient,
} from "./wizard.server";

const NAV_ACTIONS: WizardAction[] = ["next", "back", "skip_matrix", "skip_aligners", "skip_retainers", "back_to_patient"];

function actorOf(viewer: Pick<Viewer, "user">, order: Pick<Order, "email">): Actor {
  if (viewer.user) return { kind: "customer", label: viewer.user.email };
  return { kind: "customer", label: order.email ?? "anonymous browser" };
}

const notFound = () => new Response("Not found", { status: 404 });

/**
 * The current order (DESIGN §4.4, §4.9): `?id=` when this browser, its signed-in user or staff may
 * open it (404 otherwise), else the order in the current-order cookie, else none yet.
 */
async function resolveOrder(request: Request, db: DB, viewer: Viewer): Promise<{ order: Order | null; fromQuery: boolean }> {
  const id = new URL(request.url).searchParams.get("id");
  if (id !== null) {
    const order = await findOrder(db, id);
    if (
      !order ||
      !canOpenOrder(order, {
        browserOrderIds: viewer.browserOrderIds,
        userEmail: viewer.user?.email ?? null,
        isStaff: viewer.isStaff,
      })
    )
      throw notFound();
    return { order, fromQuery: true };
  }
  const currentId = viewer.currentOrderId;
  if (!currentId) return { order: null, fromQuery: false };
  const order = await findOrder(db, currentId);
  if (
    !order ||
    !canOpenOrder(order, {
      browserOrderIds: viewer.browserOrderIds,
      userEmail: viewer.user?.email ?? null,
      isStaff: viewer.isStaff,
    })
  ) {
    return { order: null, fromQuery: false };
  }
  return { order, fromQuery: false };
}

/**
 * What pricing writes on the order: the total, the discount and, when the client's conditions carry
 * a personal comment, that comment as the order's additional_comments (customer side §7: "update
 * total_cost, updated_at and optional additional_comments (from the client's personal comment)").
 */
function pricedFields(price: PriceBreakdown) {
  return {
    total_cost: price.total,
    discount_percentage: price.discountPercent,
    updated_at: new Date(),
    ...(price.note !== null ? { additional_comments: price.note } : {}),
  };
}

/** Personal conditions apply only to a signed-in owner of the order's e-mail (DESIGN §4.10). */
async function priceOf(db: DB, order: Order, patients: Patient[], viewer: Pick<Viewer, "user">): Promise<PriceBreakdown> {
  const verified = Boolean(order.email && viewer.user && viewer.user.email === order.email);
  const conditions = verified ? await db.selectFrom("client_settings").selectAll().where("email", "=", order.email!).executeTakeFirst() : undefined;
  return calculateOrderPrice({
    currency: order.currency,
    conditions: conditions
      ? {
          aligner_price: conditions.aligner_price === null ? null : Number(conditions.aligner_price),
          aligner_single_layer_price: conditions.aligner_single_layer_price === null ? null : Number(conditions.aligner_single_layer_price),
          aligner_three_layer_price: conditions.aligner_three_layer_price === null ? null : Number(conditions.aligner_three_layer_price),
          matrix_price: conditions.matrix_price === null ? null : Number(conditions.matrix_price),
          retainer_standard_price: conditions.retainer_standard_price === null ? null : Number(conditions.retainer_standard_price),
          discount_percentage: conditions.discount_percentage,
          personal_comment: conditions.personal_comment,
          currency: conditions.currency,
        }
      : null,
    isNewCustomer: await isNewCustomer(db, order.email, order.id),
    patients: patients.map((patient) => ({
      id: patient.id,
      name: patient.patient_name,
      materialType: patient.material_type,
      matrixType: patient.matrix_type,
      alignerFiles: patient.skip_aligners ? 0 : filesOf(patient, "aligners").length,
      matrixFiles: patient.skip_matrix ? 0 : filesOf(patient, "matrix").length,
      retainerFiles: patient.skip_retainers ? 0 : filesOf(patient, "retainer").length,
    })),
  });
}

/** Whether an anonymous visitor typed an e-mail that has personal conditions (offer to sign in). */
async function hasPersonalConditions(db: DB, email: string | null) {
  if (!email) return false;
  return Boolean(await db.selectFrom("client_settings").select("email").where("email", "=", email).executeTakeFirst());
}

export async function loadWizardPage(request: Request, context: unknown) {
  const db = await getDb();
  const { viewer, market } = await getRequestContext(request, context);
  const { order, fromQuery } = await resolveOrder(request, db, viewer);
  const headers = order && fromQuery ? await rememberOrderHeaders(viewer.browserOrderIds, order.id, false) : undefined;
  const orderMarket: Market = order?.market ?? market;
  const traits = MARKET_TRAITS[orderMarket];
  const priceSet = PRICE_SETS[traits.currency];

  if (!order) {
    return data(
      {
        order: null,
        step: 1,
        market: orderMarket,
        traits,
        priceSet,
        patients: [],
        currentPatientId: null,
        noPatient: false,
        skipped: false,
        price: null,
        personalOffer: false,
        signedIn: Boolean(viewer.user),
      },
      { headers },
    );
  }

  const patients = await listPatients(db, order.id);
  const current = patients.find((patient) => patient.id === order.current_patient_id) ?? patients[0] ?? null;
  if (current && current.id !== order.current_patient_id && order.status === "draft") {
    // The first patient, chosen because none was remembered, is saved as the order's current one (customer side §4).
    // Remembering it is a convenience: the page shows the same patient if it cannot be saved now.
    await db
      .updateTable("orders")
      .set({ current_patient_id: current.id })
      .where("id", "=", order.id)
      .where("status", "=", "draft")
      .execute()
      .catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) throw error;
        console.error("the current patient was not saved:", error);
      });
  }
  const step = order.status === "draft" ? clampStep(order.wizard_step) : 11;
  // A patient's step without a patient says so, with the way back (customer side §8), instead of moving on.
  const noPatient = step >= 5 && step <= 10 && !current;
  const statuses = await queueStatuses(db, order.id);
  const price = step === 11 ? await priceOf(db, order, patients, viewer) : null;
  if (price && order.status === "draft" && (Number(order.total_cost ?? -1) !== price.total || (price.note !== null && order.additional_comments !== price.note))) {
    // The total is recalculated on entering the summary and stored (customer-side §2, step 11), with
    // the client's personal comment for staff and the task tracker (customer side §7).
    await db.updateTable("orders").set(pricedFields(price)).where("id", "=", order.id).where("status", "=", "draft").execute();
  }
  const personalOffer = !viewer.user && (step === 2 || step === 11) && (await hasPersonalConditions(db, order.email));

  return data(
    {
      order: {
        id: order.id,
        title: shortOrderNumber(order.id),
        number: longOrderNumber(order.id),
        status: order.status,
        email: order.email,
        phone: order.phone,
        fullName: order.full_name,
        address: order.address,
        deliveryComment: order.delivery_comment,
        currency: order.currency,
      },
      step,
      market: orderMarket,
      traits,
      priceSet,
      patients: patients.map((patient) => ({
        id: patient.id,
        name: patient.patient_name,
        folder: patient.folder_name,
        materialType: patient.material_type,
        cutType: patient.cut_type,
        matrixType: patient.matrix_type,
        comments: patient.additional_comments,
        skips: skipsOf(patient),
        files: Object.fromEntries(
          (["matrix", "aligners", "retainer"] as const).map((type) => [
            type,
            (filesOf(patient, type) as RecordedFile[]).map((file) => ({
              name: file.originalName,
              size: file.size,
              path: file.storagePath,
              sync: statuses[file.storagePath] ?? "pending",
              scan: file.scan ?? null,
            })),
          ]),
        ) as Record<
          FileType,
          Array<{
            name: string;
            size: number;
            path: string;
            sync: string;
            scan: ScanSummary | null;
          }>
        >,
      })),
      currentPatientId: current?.id ?? null,
      noPatient,
      skipped: isSkippedStep(step, skipsOf(current)),
      price,
      personalOffer,
      signedIn: Boolean(viewer.user),
    },
    { headers },
  );
}

export type WizardLoaderData = Awaited<ReturnType<typeof loadWizardPage>>["data"];

interface ActionFailure {
  errors: FieldErrors;
  formError?: string;
  values?: Record<string, string>;
  /** A save the server could not make (ADR 026), shown in place; keys, a value named "…Key" translated first. */
  saveFailure?: {
    title: string;
    message: string;
    values?: Record<string, string>;
  };
}

/** "Ошибка сохранения": the retainer's wording, or the data's name for the other lists (customer side §8). */
function fileListFailureToast(type: FileType): Toast {
  if (type === "retainer")
    return {
      type: "error",
      title: "failures.saveTitle",
      description: "failures.saveFiles",
    };
  return {
    type: "error",
    title: "failures.saveTitle",
    description: type === "matrix" ? "failures.saveMatrixFiles" : "failures.saveAlignerFiles",
  };
}

const fail = (failure: ActionFailure, status = 400) => data(failure, { status });

/** The form's text values, sent back so a refused form shows what was typed. */
const typedValues = (form: FormData) => Object.fromEntries([...form].filter(([, v]) => typeof v === "string") as Array<[string, string]>);

/** The typed texts that may be stored ("" as null), and the problem of each one that may not (control characters, too long). */
function storable<K extends LimitedField>(values: Record<K, string>): { store: Partial<Record<K, string | null>>; problems: FieldErrors } {
  const store: Partial<Record<K, string | null>> = {};
  const problems: FieldErrors = {};
  for (const [name, value] of Object.entries<string>(values) as Array<[K, string]>) {
    const problem = fieldProblem(name, value);
    if (problem) problems[name] = problem;
    else store[name] = value || null;
  }
  return { store, problems };
}

/**
 * Saves what the current step's form carries (also on "back" and the skips, so nothing typed is
 * lost) and returns the problems of the texts it could not save; the caller then keeps the doctor
 * on the step with them.
 */
async function saveStepFields(db: DB, order: Order, patient: Patient | null, step: number, form: FormData, market: Market): Promise<FieldErrors> {
  if (step === 2) {
    const contacts = readContacts(form);
    const { store, problems } = storable({
      email: contacts.email,
      phone: contacts.phone,
    });
    await updateDraft(db, order.id, store);
    return problems;
  }
  if (step === 3) {
    const delivery = readDelivery(form);
    const { store, problems } = storable({
      full_name: delivery.full_name,
      address: delivery.address,
      delivery_comment: delivery.delivery_comment,
    });
    await updateDraft(db, order.id, store);
    return problems;
  }
  if (patient && step === 6) {
    const matrixType = MARKET_TRAITS[market].softMatrix ? readChoice(form, "matrix_type", ["soft", "hard"] as const) : "hard";
    if (matrixType)
      await updatePatient(db, order.id, patient.id, {
        matrix_type: matrixType,
      });
  } else if (patient && step === 8) {
    const material = readChoice(form, "material_type", ["single_layer", "three_layer"] as const);
    if (material)
      await updatePatient(db, order.id, patient.id, {
        material_type: material,
      });
  } else if (patient && step === 9) {
    const cut = readChoice(form, "cut_type", ["wavy", "straight"] as const);
    const { store, problems } = storable({
      additional_comments: readText(form, "additional_comments"),
    });
    await updatePatient(db, order.id, patient.id, {
      ...(cut ? { cut_type: cut } : {}),
      ...store,
    });
    return problems;
  }
  return {};
}

/** The checks that must pass before "next" (customer-side §2 forward conditions, §5). */
async function checkStep(step: number, order: Order, patient: Patient | null, patientCount: number, form: FormData, market: Market): Promise<ActionFailure | null> {
  const skips = skipsOf(patient);
  if (isSkippedStep(step, skips)) return null;
  const errors: FieldErrors = {};
  if (step === 2) Object.assign(errors, checkContacts(readContacts(form)));
  if (step === 3) Object.assign(errors, checkDelivery(readDelivery(form), MARKET_TRAITS[market].domesticNotices));
  if (step === 4 && patientCount === 0) errors.patient_name = "wizard.errors.patientRequired";
  if (step >= 5 && step <= 10 && !patient) return { errors: {}, formError: "wizard.errors.noPatientSelected" };
  if (patient) {
    if (step === 5 && !skips.skipMatrix && filesOf(patient, "matrix").length === 0) errors.files = "wizard.errors.matrixFilesRequired";
    if (step === 6 && !patient.matrix_type && !readChoice(form, "matrix_type", ["soft", "hard"] as const) && MARKET_TRAITS[market].softMatrix) errors.matrix_type = "wizard.errors.matrixTypeRequired";
    if (step === 7 && !skips.skipAligners && filesOf(patient, "aligners").length === 0) errors.files = "wizard.errors.alignerFilesRequired";
    if (step === 8 && !readChoice(form, "material_type", ["single_layer", "three_layer"] as const) && !patient.material_type) errors.material_type = "wizard.errors.materialRequired";
    if (step === 9 && !readChoice(form, "cut_type", ["wavy", "straight"] as const) && !patient.cut_type) errors.cut_type = "wizard.errors.cutRequired";
    const commentProblem = step === 9 ? fieldProblem("additional_comments", readText(form, "additional_comments")) : null;
    if (commentProblem) errors.additional_comments = commentProblem;
    if (step === 10 && !skips.skipRetainers && filesOf(patient, "retainer").length === 0) errors.files = "wizard.errors.retainerFilesRequired";
  }
  void order;
  return Object.keys(errors).length ? { errors, values: typedValues(form) } : null;
}

/** Everything the summary needs before payment; the first problem points the doctor to its step. */
function checkComplete(order: Order, patients: Patient[], market: Market): { step: number; error: string } | null {
  const contactErrors = checkContacts({
    email: order.email ?? "",
    phone: order.phone ?? "",
  });
  if (Object.keys(contactErrors).length) return { step: 2, error: Object.values(contactErrors)[0]! };
  const deliveryErrors = checkDelivery(
    {
      full_name: order.full_name ?? "",
      address: order.address ?? "",
      delivery_comment: "",
      consent: true,
    },
    false,
  );
  if (Object.keys(deliveryErrors).length) return { step: 3, error: Object.values(deliveryErrors)[0]! };
  if (patients.length === 0) return { step: 4, error: "wizard.errors.patientRequired" };
  for (const patient of patients) {
    const files = filesOf(patient, "matrix").length + filesOf(patient, "aligners").length + filesOf(patient, "retainer").length;
    if (files === 0) return { step: 5, error: "wizard.errors.patientWithoutFiles" };
    if (filesOf(patient, "aligners").length > 0 && !patient.skip_aligners && (!patient.material_type || !patient.cut_type)) return { step: 8, error: "wizard.errors.materialRequired" };
    if (filesOf(patient, "matrix").length > 0 && !patient.skip_matrix && !patient.matrix_type && MARKET_TRAITS[market].softMatrix) return { step: 6, error: "wizard.errors.matrixTypeRequired" };
  }
  return null;
}

function toastFromUploads(results: UploadResult[]): Toast | null {
  if (results.length === 0) return null;
  const stored = results.filter((result) => result.ok).length;
  const count = (error: string) => results.filter((result) => !result.ok && result.error === error).length;
  const lines: NonNullable<Toast["lines"]> = [];
  const format = count("format");
  const size = count("size");
  if (format) lines.push({ key: "wizard.upload.formatError", values: { count: format } });
  if (size) lines.push({ key: "wizard.upload.sizeError", values: { count: size } });
  for (const result of results) {
    if (!result.ok && (result.error === "not_stl" || result.error === "truncated" || result.error === "empty" || result.error === "storage" || result.error === "too_many")) {
      lines.push({ key: "wizard.upload.fileFailed", values: { name: result.originalName, causeKey: `wizard.upload.causes.${result.error}` } });
    }
  }
  // Wrong format or size: their own title, as the page says it with JavaScript (customer side §8).
  if (format || size) {
    const [first, ...others] = lines;
    return {
      type: "error",
      title: format ? "uploads.errors.formatTitle" : "uploads.errors.sizeTitle",
      description: first!.key,
      values: first!.values,
      lines: [
        ...others,
        ...(stored > 0
          ? [
              {
                key: "wizard.upload.successText",
                values: { done: stored, total: results.length },
              },
            ]
          : []),
      ],
    };
  }
  if (stored === 0)
    return {
      type: "error",
      title: "wizard.upload.noValidTitle",
      description: "wizard.upload.noValidText",
      lines,
    };
  return {
    type: lines.length ? "warning" : "success",
    title: "wizard.upload.successTitle",
    description: "wizard.upload.successText",
    values: { done: stored, total: results.length },
    lines,
  };
}

export async function handleWizardAction(request: Request, context: unknown) {
  const db = await getDb();
  const { viewer, market, language } = await getRequestContext(request, context);
  const { order } = await resolveOrder(request, db, viewer);

  // Uploads arrive as multipart: files stream to storage while the form is read (no buffering).
  let form: FormData;
  let uploads: UploadResult[] = [];
  if (isMultipartRequest(request)) {
    const patients = order ? await listPatients(db, order.id) : [];
    const patient = order ? patients.find((p) => p.id === order.current_patient_id) ?? patients[0] ?? null : null;
    const fileType = order ? STEP_FILE_TYPE[clampStep(order.wizard_step)] : undefined;
    const canUpload = Boolean(order && order.status === "draft" && patient && fileType);
    const usage = order && canUpload ? await orderFileUsage(db, order.id) : { files: 0, bytes: 0 };
    const upload = createStlUploadHandler({
      storage: getStorage(),
      bucket: "orders",
      keyFor: (originalName, uploadedAt) => storageKey(order!.id, patient!.folder_name, fileType!, storedFileName(originalName, uploadedAt)),
      maxFiles: canUpload ? Math.max(0, ORDER_FILE_LIMIT - usage.files) : 0,
    });
    const declared = Number(request.headers.get("Content-Length") ?? 0);
    if (canUpload && declared > ORDER_BYTES_LIMIT - usage.bytes) {
      return redirectWithToast("/order", {
        type: "error",
        title: "wizard.upload.errorTitle",
        description: "wizard.upload.orderQuota",
      });
    }
    if (canUpload && !viewer.user && !viewer.isStaff) {
      const allowed = await rateLimitUploadBytes(db, request, context);
      if (!allowed)
        return redirectWithToast("/order", {
          type: "error",
          title: "wizard.upload.errorTitle",
          description: "wizard.upload.rateLimited",
        });
    }
    try {
      form = await parseMultipartFormData(request, upload.handler);
    } catch (error) {
      // A body without its boundary or cut off midway: nothing of it is kept.
      await upload.discardStored();
      if (request.signal.aborted) throw error;
      throw await badRequest(request);
    }
    uploads = upload.results();
    if (order && patient && fileType) {
      const stored = uploads.filter((result): result is Extract<UploadResult, { ok: true }> => result.ok);
      try {
        await appendFiles(
          db,
          order,
          patient,
          fileType,
          stored.map((s) => ({
            originalName: s.originalName,
            key: s.key,
            size: s.size,
            triangles: s.triangles,
            scan: s.scan,
          })),
        );
      } catch (error) {
        await discardUnrecorded(
          db,
          getStorage(),
          order.id,
          stored.map((s) => s.key),
          error,
        );
        if (error instanceof OrderFrozenError)
          return redirectWithToast("/order", {
            type: "error",
            title: "wizard.errors.frozenTitle",
            description: "wizard.errors.frozen",
          });
        if (isDatabaseUnavailable(error)) throw error;
        // The files' list could not be saved: said on the step (customer side §8 "Ошибка сохранения").
        return redirectWithToast("/order", fileListFailureToast(fileType));
      }
    }
  } else {
    form = await readFormData(request);
  }

  const intent = String(form.get("intent") ?? "");
  const uploadToast = toastFromUploads(uploads);

  // Step 1 "next" with no order yet creates the draft (DESIGN §4.5).
  if (!order) {
    if (intent !== "next") return redirect("/order");
    const prefill = viewer.user ? await lastOrderContacts(db, viewer.user.email) : undefined;
    const created = await createOrder(
      db,
      {
        market,
        currency: MARKET_TRAITS[market].currency,
        email: prefill?.email ?? viewer.user?.email ?? null,
        phone: prefill?.phone ?? null,
        fullName: prefill?.full_name ?? null,
        address: prefill?.address ?? null,
        // In the same transaction: a failure after it cannot leave a draft this browser never learns of.
        wizardStep: 2,
        language,
      },
      viewer.user ? { kind: "customer", label: viewer.user.email } : { kind: "customer", label: "anonymous browser" },
    );
    return redirect("/order", {
      headers: await rememberOrderHeaders(viewer.browserOrderIds, created.id, true),
    });
  }

  const patients = await listPatients(db, order.id);
  const patient = patients.find((p) => p.id === order.current_patient_id) ?? patients[0] ?? null;
  const step = order.status === "draft" ? clampStep(order.wizard_step) : 11;

  if (intent === "edit") {
    try {
      await changeOrderStatus(db, order.id, "draft", actorOf(viewer, order), {
        note: "returned to draft by the customer",
      });
    } catch (error) {
      if (!(error instanceof OrderTransitionError)) throw error;
    }
    await db.updateTable("payments").set({ status: "canceled", updated_at: new Date() }).where("order_id", "=", order.id).where("status", "in", ["created", "pending"]).execute();
    await setWizardStep(db, order.id, 11);
    return redirect("/order");
  }

  if (order.status !== "draft") {
    if (intent === "pay" && order.status === "pending") return startPayment(request, db, order, viewer);
    return redirectWithToast("/order", {
      type: "error",
      title: "wizard.errors.frozenTitle",
      description: "wizard.errors.frozen",
    });
  }

  try {
    if (intent === "select_patient" || intent.startsWith("select_patient:")) {
      const wanted = intent.startsWith("select_patient:") ? intent.slice("select_patient:".length) : form.get("patientId");
      const chosen = patients.find((p) => p.id === wanted);
      if (chosen) await updateDraft(db, order.id, { current_patient_id: chosen.id });
      return redirect("/order");
    }

    if (intent === "add_patient") {
      const name = readText(form, "patient_name");
      if (!name)
        return fail({
          errors: { patient_name: "wizard.errors.patientNameRequired" },
        });
      const nameProblem = fieldProblem("patient_name", name);
      if (nameProblem)
        return fail({
          errors: { patient_name: nameProblem },
          values: { patient_name: name },
        });
      let added: Patient;
      try {
        added = await addPatient(db, order, name);
      } catch (error) {
        if (error instanceof OrderFrozenError || isDatabaseUnavailable(error)) throw error;
        console.error("patient not added:", error);
        // Said in place with the typed name kept (customer side §5, §8).
        const message = failureCause(error) === "failures.causes.database" ? "wizard.errors.addPatientFailed" : "failures.addPatientUnexpected";
        return fail(
          {
            errors: {},
            values: { patient_name: name },
            saveFailure: { title: "failures.errorTitle", message },
          },
          500,
        );
      }
      await setWizardStep(db, order.id, 4);
      return redirectWithToast("/order", {
        type: "success",
        title: "wizard.toasts.patientAddedTitle",
        description: "wizard.toasts.patientAdded",
        values: { name: added.patient_name },
      });
    }

    if (intent.startsWith("remove:")) {
      const [, type, ...rest] = intent.split(":");
      const path = rest.join(":");
      if (!patient || !(type === "matrix" || type === "aligners" || type === "retainer")) return redirect("/order");
      const removed = await removeFile(db, order.id, patient.id, type, path);
      if (!removed)
        return redirectWithToast("/order", {
          type: "error",
          title: "wizard.files.removeFailedTitle",
          description: "wizard.files.removeFailed",
        });
      try {
        await getStorage().delete("orders", [path]);
      } catch (error) {
        // The file left the order; its copy stays in storage, and the doctor is told so (customer side §8).
        console.error("file removed from the order but not from storage:", path, error);
        return redirectWithToast("/order", {
          type: "error",
          title: "wizard.files.removeFailedTitle",
          description: "wizard.files.removeFailed",
        });
      }
      return redirectWithToast("/order", {
        type: "success",
        title: "wizard.files.removed",
      });
    }

    if (intent === "pay") return startPayment(request, db, order, viewer);

    const action = NAV_ACTIONS.find((candidate) => candidate === intent) ?? (uploads.length ? null : null);
    if (!action) {
      // A plain "upload" button: files are stored, the step stays.
      return uploadToast ? redirectWithToast("/order", uploadToast) : redirect("/order");
    }

    let unsaved: FieldErrors;
    try {
      unsaved = await saveStepFields(db, order, patient, step, form, order.market);
    } catch (error) {
      if (error instanceof OrderFrozenError || isDatabaseUnavailable(error)) throw error;
      console.error("wizard step not saved:", error);
      // Said in place with what was typed kept (customer side §8 "Ошибка обновления").
      return fail(
        {
          errors: {},
          values: typedValues(form),
          saveFailure: {
            title: "failures.updateTitle",
            message: "failures.updateText",
            values: { causeKey: failureCause(error) },
          },
        },
        500,
      );
    }
    if (action !== "next" && Object.keys(unsaved).length) return fail({ errors: unsaved, values: typedValues(form) });
    if (action === "next") {
      const fresh = patient ? (await listPatients(db, order.id)).find((p) => p.id === patient.id) ?? patient : null;
      const failure = await checkStep(step, order, fresh, patients.length, form, order.market);
      if (failure) {
        if (uploadToast) return redirectWithToast("/order", uploadToast);
        return fail(failure);
      }
    }
    const move = navigate(step, action, skipsOf(patient));
    if (move.setSkips && patient) {
      await updatePatient(db, order.id, patient.id, {
        ...(move.setSkips.skipMatrix !== undefined ? { skip_matrix: move.setSkips.skipMatrix } : {}),
        ...(move.setSkips.skipAligners !== undefined ? { skip_aligners: move.setSkips.skipAligners } : {}),
        ...(move.setSkips.skipRetainers !== undefined ? { skip_retainers: move.setSkips.skipRetainers } : {}),
      });
    }
    await setWizardStep(db, order.id, move.step);
    const skipToast: Record<string, Toast> = {
      skip_matrix: {
        type: "info",
        title: "wizard.toasts.skippedTitle",
        description: "wizard.toasts.skippedMatrix",
      },
      skip_aligners: {
        type: "info",
        title: "wizard.toasts.skippedTitle",
        description: "wizard.toasts.skippedAligners",
      },
      skip_retainers: {
        type: "info",
        title: "wizard.toasts.skippedTitle",
        description: "wizard.toasts.skippedRetainers",
      },
      back_to_patient: {
        type: "info",
        title: "wizard.toasts.addPatientTitle",
        description: "wizard.toasts.addPatient",
      },
    };
    const toast = uploadToast ?? skipToast[action];
    return toast ? redirectWithToast("/order", toast) : redirect("/order");
  } catch (error) {
    if (error instanceof OrderFrozenError)
      return redirectWithToast("/order", {
        type: "error",
        title: "wizard.errors.frozenTitle",
        description: "wizard.errors.frozen",
      });
    throw error;
  }
}

/**
 * Hand-off to payment (customer-side §4): contacts saved, total recalculated, draft → pending
 * (composition frozen), partner linked once, then the payment service creates (or reuses) an attempt
 * and the browser goes to the provider's page with the current-order cookie cleared. A provider
 * outage leaves the order pending and sends the doctor back to the summary with a clear message;
 * the next press retries with the same idempotence key.
 */
async function startPayment(request: Request, db: DB, order: Order, viewer: Viewer) {
  const patients = await listPatients(db, order.id);
  if (order.status === "draft") {
    const incomplete = checkComplete(order, patients, order.market);
    if (incomplete) {
      await setWizardStep(db, order.id, incomplete.step);
      return redirectWithToast("/order", {
        type: "error",
        title: "wizard.errors.incompleteTitle",
        description: incomplete.error,
      });
    }
  }
  let lines: PaymentLine[] = [];
  if (order.status === "draft") {
    const price = await priceOf(db, order, patients, viewer);
    if (price.total <= 0)
      return redirectWithToast("/order", {
        type: "error",
        title: "wizard.payment.errorTitle",
        description: "wizard.payment.noAmount",
      });
    const partnerCode = await cookies.partnerCode().parse(request.headers.get("Cookie"));
    await db.updateTable("orders").set(pricedFields(price)).where("id", "=", order.id).where("status", "=", "draft").execute();
    await linkPartnerAtHandOff(db, order, typeof partnerCode === "string" ? partnerCode : null);
    await changeOrderStatus(db, order.id, "pending", actorOf(viewer, order));
    lines = paymentLines(price, order.market === "international" ? "en" : "ru");
  } else {
    // Frozen since hand-off: the total stays; the lines are those of the earlier attempt.
    lines = await previousAttemptLines(db, order);
  }
  const pending = (await findOrder(db, order.id))!;
  if (Number(pending.total_cost ?? 0) <= 0)
    return redirectWithToast("/order", {
      type: "error",
      title: "wizard.payment.errorTitle",
      description: "wizard.payment.noAmount",
    });
  const config = getConfig();
  const result = await startOrderPayment(db, config, { order: pending, lines, origin: publicOrigin(pending.market) });
  if (!result.ok) {
    return redirectWithToast(`/order?id=${order.id}`, paymentFailureToast(result.reason));
  }
  return redirect(result.redirectTo, {
    headers: { "Set-Cookie": await forgetCurrentOrderHeader() },
  });
}

/**
 * Payment lines for an order paid later (payment link, cabinet): the lines of its last attempt, or
 * the lines recalculated with its e-mail's conditions when they give the same total. The payment
 * service falls back to one line for the whole order when neither adds up.
 */
export async function laterPaymentLines(db: DB, order: Order): Promise<PaymentLine[]> {
  const previous = await previousAttemptLines(db, order);
  if (previous.length) return previous;
  const owner: Pick<Viewer, "user"> = {
    user: order.email ? ({ email: order.email } as SessionUser) : null,
  };
  const price = await priceOf(db, order, await listPatients(db, order.id), owner);
  return price.total === Number(order.total_cost ?? -1) ? paymentLines(price, order.market === "international" ? "en" : "ru") : [];
}
