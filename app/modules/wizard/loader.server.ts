import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { FILE_TYPES, type FileType } from "~db/schema";
import { getDb } from "~/modules/db/db.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { getRequestContext } from "~/modules/http/request/request-context.server";
import { MARKET_TRAITS, type Market } from "~/modules/market/market";
import { longOrderNumber, shortOrderNumber } from "~/modules/orders/orders.server";
import { calculateOrderPrice } from "~/modules/pricing/calculate";
import type { ScanSummary } from "~/modules/uploads/scan";
import { isSkippedStep } from "./navigation";
import { clampStep, FIRST_STEP, LAST_STEP, stepAt } from "./steps";
import { resolveOrder } from "./order-access.server";
import { type OpenItem, openItems } from "./step-fields.server";
import { rememberOrderHeaders } from "~/modules/orders/browser-orders.server";
import { type OrderInBrowser, ordersInBrowser } from "~/modules/orders/orders-in-browser.server";
import { isSignedInOwner, priceInputOf, priceListFor } from "~/modules/pricing/order-price.server";
import { filesOf, queueStatuses, type RecordedFile, setAsideFilesOf, SKIP_COLUMNS } from "~/modules/orders/files.server";
import { detectJaw, detectStep } from "~/modules/orders/jaw-and-step";
import { listPatients } from "~/modules/orders/patients.server";
import { rememberCurrentPatient, storeDraftPrice } from "~/modules/orders/drafts.server";
import { skipsOf } from "~/modules/wizard/navigation";
import { logger } from "~/modules/log/logger.server";
import { textTranslator } from "~/modules/translations/overrides.server";
import { readablePhone } from "~/modules/validation/phone";

export async function loadWizardPage({ request, context }: LoaderFunctionArgs) {
  const db = await getDb();
  const { viewer, market, language } = await getRequestContext(request, context);
  const { order, fromQuery } = await resolveOrder(request, db, viewer);
  const headers = order && fromQuery ? await rememberOrderHeaders(viewer.browserOrderIds, order.id, false) : undefined;
  const orderMarket: Market = order?.market ?? market;
  const traits = MARKET_TRAITS[orderMarket];
  // A signed-in client sees their own prices from step 1 on, as the summary will charge them: those of
  // the order's e-mail when it is theirs, none when the order carries someone else's address.
  const listEmail = viewer.user && (!order?.email || order.email === viewer.user.email) ? viewer.user.email : null;
  const { priceSet, personal: personalPrices } = await priceListFor(db, order?.currency ?? traits.currency, listEmail);

  if (!order) {
    return data(
      {
        order: null,
        step: FIRST_STEP,
        market: orderMarket,
        traits,
        priceSet,
        personalPrices,
        patients: [],
        currentPatientId: null,
        noPatient: false,
        skipped: false,
        returnsToSummary: false,
        price: null,
        priceInput: null,
        personalOffer: false,
        signedIn: Boolean(viewer.user),
        openItems: [] as OpenItem[],
        consentGiven: false,
        // No order in the wizard: the ones this browser left waiting are offered (ADR 087).
        ordersInBrowser: await ordersInBrowser(db, viewer.browserOrderIds, orderMarket),
      },
      { headers },
    );
  }

  const patients = await listPatients(db, order.id);
  const current = patients.find((patient) => patient.id === order.current_patient_id) ?? patients[0] ?? null;
  if (current && current.id !== order.current_patient_id && order.status === "draft") {
    // The first patient, chosen because none was remembered, is saved as the order's current one (customer side §4).
    // Remembering it is a convenience: the page shows the same patient if it cannot be saved now.
    await rememberCurrentPatient(db, order.id, current.id).catch((error: unknown) => {
      if (isDatabaseUnavailable(error)) throw error;
      logger.error("the current patient was not saved:", error);
    });
  }
  const step = order.status === "draft" ? clampStep(order.wizard_step) : LAST_STEP;
  const here = stepAt(step);
  // A patient's step without a patient says so, with the way back (customer side §8), instead of moving on.
  const noPatient = Boolean(here.perPatient) && !current;
  const statuses = await queueStatuses(db, order.id);
  const priceInput = here.kind === "summary" ? await priceInputOf(db, order, patients, viewer) : null;
  const price = priceInput ? calculateOrderPrice(priceInput) : null;
  if (price && order.status === "draft" && (Number(order.total_cost ?? -1) !== price.total || (price.note !== null && order.additional_comments !== price.note))) {
    // The total is recalculated on entering the summary and stored (customer-side §2, step 11), with
    // the client's personal comment for staff and the task tracker (customer side §7).
    await storeDraftPrice(db, order.id, price);
  }
  // The offer to sign in is made to whoever typed an address without being signed in with it, whether
  // or not it has conditions: whether it has them is the address's own business (ADR 083).
  const personalOffer = here.offersPersonalPrice === true && Boolean(order.email) && !isSignedInOwner(order, viewer);
  // What still stops payment, each with the step that settles it (ADR 087).
  const open = here.kind === "summary" && order.status === "draft" ? openItems(order, patients, orderMarket) : [];

  return data(
    {
      order: {
        id: order.id,
        title: shortOrderNumber(order.id),
        // The tab's title in the reader's language, as the page's heading ("Заказ {{code}}").
        pageTitle: (await textTranslator(language))("wizard.title", { code: shortOrderNumber(order.id) }),
        number: longOrderNumber(order.id),
        status: order.status,
        email: order.email,
        phone: order.phone,
        /** As the summary shows it (grouped when typed as bare digits); formatted here, so the page carries no code for it. */
        phoneShown: order.phone ? readablePhone(order.phone) : null,
        fullName: order.full_name,
        address: order.address,
        deliveryComment: order.delivery_comment,
        currency: order.currency,
      },
      step,
      market: orderMarket,
      traits,
      priceSet,
      personalPrices,
      patients: patients.map((patient) => ({
        id: patient.id,
        name: patient.patient_name,
        folder: patient.folder_name,
        materialType: patient.material_type,
        cutType: patient.cut_type,
        matrixType: patient.matrix_type,
        comments: patient.additional_comments,
        skips: skipsOf(patient),
        /** Per kind: the files a confirmed skip set aside (ADR 087), listed as not in the order, and whether a skipped step came back. */
        setAside: Object.fromEntries(FILE_TYPES.map((type) => [type, setAsideFilesOf(patient, type).map((file) => ({ name: file.originalName, size: file.size, path: file.storagePath }))])) as Record<
          FileType,
          Array<{ name: string; size: number; path: string }>
        >,
        cameBack: Object.fromEntries(FILE_TYPES.map((type) => [type, patient[SKIP_COLUMNS[type].back] !== null])) as Record<FileType, boolean>,
        files: Object.fromEntries(
          FILE_TYPES.map((type) => [
            type,
            (filesOf(patient, type) as RecordedFile[]).map((file) => ({
              name: file.originalName,
              size: file.size,
              path: file.storagePath,
              sync: statuses[file.storagePath] ?? "pending",
              scan: file.scan ?? null,
              // Declared jaw and step (ADR 058); an older file's guess from its name, and nothing to confirm.
              ...declarationOf(file, type),
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
            jaw: "upper" | "lower" | null;
            stepNumber: number | null;
            confirmed: boolean;
          }>
        >,
      })),
      currentPatientId: current?.id ?? null,
      noPatient,
      /** The step was opened from the summary: its "next" leads back there (ADR 060). */
      returnsToSummary: order.wizard_returns && here.kind !== "summary" && order.status === "draft",
      skipped: isSkippedStep(step, skipsOf(current)),
      price,
      priceInput,
      personalOffer,
      signedIn: Boolean(viewer.user),
      openItems: open,
      ordersInBrowser: [] as OrderInBrowser[],
      /** The consent was ticked on the delivery step and not unticked since: kept while the step is edited (ADR 087). */
      consentGiven: order.data_consent_at !== null,
    },
    { headers },
  );
}

export type WizardLoaderData = Awaited<ReturnType<typeof loadWizardPage>>["data"];

/** A file's jaw and step as the step shows them: declared, or for a file recorded before declarations the name's guess. */
function declarationOf(file: RecordedFile, type: FileType): { jaw: "upper" | "lower" | null; stepNumber: number | null; confirmed: boolean } {
  if (file.confirmed === undefined) return { jaw: detectJaw(file.originalName), stepNumber: type === "aligners" ? detectStep(file.originalName) : null, confirmed: true };
  return { jaw: file.jaw ?? null, stepNumber: file.stepNumber ?? null, confirmed: file.confirmed };
}
