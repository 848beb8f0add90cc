import type { CurrencyCode } from "~/modules/money/format";
import { PRICE_SETS } from "./price-sets";

/**
 * Order pricing (customer-side §9 "Price rules", DESIGN §4.10–4.11). Pure and synchronous: no
 * database, safe to import in the browser. All amounts are integers in minor units.
 *
 * - Personal conditions apply only when the caller passes them (verified e-mail, DESIGN §4.10) and
 *   only when their currency is the order's; otherwise they are ignored entirely.
 * - One rounding rule: the discount is the goods subtotal × percent, rounded half up once.
 * - `paymentLines` (payment-lines.ts) spreads that discount over the goods lines so the receipt adds
 *   up to the total; the lines' wording is in line-texts.ts.
 */

/** The personal conditions of a client (`client_settings`); a row of that table fits this shape. */
export interface PersonalConditions {
  aligner_price: number | null;
  aligner_single_layer_price: number | null;
  aligner_three_layer_price: number | null;
  matrix_price: number | null;
  retainer_standard_price: number | null;
  /** Numeric column: arrives as a string such as "7.50". */
  discount_percentage: string | number | null;
  personal_comment: string | null;
  currency: CurrencyCode;
}

export interface PatientPriceInput {
  id: string;
  name: string;
  /** null with aligner files counts as single-layer. */
  materialType: "single_layer" | "three_layer" | null;
  /** null counts as hard. */
  matrixType: "soft" | "hard" | null;
  alignerFiles: number;
  matrixFiles: number;
  retainerFiles: number;
}

export interface PriceInput {
  currency: CurrencyCode;
  /** null unless the visitor is signed in with the order's e-mail. */
  conditions: PersonalConditions | null;
  /** No orders in pending, paid or completed: +3 percentage points of discount. */
  isNewCustomer: boolean;
  patients: readonly PatientPriceInput[];
}

export type GoodsLineKind =
  | "aligners_single"
  | "aligners_three"
  | "matrices_soft"
  | "matrices_hard"
  | "retainers";
export type PriceLineKind = GoodsLineKind | "delivery" | "service_fee";

export interface PriceLine {
  kind: PriceLineKind;
  patientId?: string;
  patientName?: string;
  quantity: number;
  unitPrice: number;
  /** quantity × unitPrice, before the discount. */
  amount: number;
}

export interface PriceBreakdown {
  currency: CurrencyCode;
  unitPrices: {
    singleLayer: number;
    threeLayer: number;
    matrix: number;
    retainer: number;
    delivery: number;
  };
  /** Goods lines (per patient: aligners, matrices, retainers), then delivery, then the service fee if any. */
  lines: PriceLine[];
  goodsSubtotal: number;
  /** Effective percent after the new-customer bonus and the 100 % cap, e.g. 10.5. */
  discountPercent: number;
  discountAmount: number;
  delivery: number;
  serviceFee: number;
  total: number;
  /** The client's personal comment: shown as a zero-price note, never a payment line. */
  note: string | null;
  minimumOrder: number;
}

/** Percentage points added for a new customer, in hundredths of a percent. */
const NEW_CUSTOMER_BONUS = 300;
const FULL_DISCOUNT = 10_000;
const GOODS_KINDS: ReadonlySet<PriceLineKind> = new Set<PriceLineKind>([
  "aligners_single",
  "aligners_three",
  "matrices_soft",
  "matrices_hard",
  "retainers",
]);

export function isGoodsLine(line: Pick<PriceLine, "kind">): boolean {
  return GOODS_KINDS.has(line.kind);
}

/**
 * A discount percentage as an integer number of hundredths of a percent (7.5 → 750), rounded half
 * up at the second decimal, clamped to 0…100 %. Missing or unreadable values count as 0.
 */
export function discountHundredths(
  value: string | number | null | undefined
): number {
  if (value === null || value === undefined) return 0;
  const number =
    typeof value === "number"
      ? value
      : value.trim() === ""
      ? Number.NaN
      : Number(value.trim());
  if (!Number.isFinite(number)) return 0;
  // toPrecision strips binary noise (1.005 * 100 = 100.49999…) before rounding.
  const hundredths = Math.round(Number((number * 100).toPrecision(12)));
  return Math.min(FULL_DISCOUNT, Math.max(0, hundredths));
}

/** round_half_up(amount × hundredths / 10 000) in exact integer arithmetic. */
function percentOf(amount: number, hundredths: number): number {
  return Number((BigInt(amount) * BigInt(hundredths) + 5_000n) / 10_000n);
}

function assertCount(value: number, what: string) {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(
      `${what} must be a non-negative integer, got ${value}`
    );
}

/** A personal price: null means "none"; a number, including 0, is the price. */
function personalPrice(
  value: number | null | undefined,
  what: string
): number | null {
  if (value === null || value === undefined) return null;
  assertCount(value, what);
  return value;
}

export function calculateOrderPrice(input: PriceInput): PriceBreakdown {
  const base = PRICE_SETS[input.currency];
  if (!base) throw new RangeError(`unknown currency ${String(input.currency)}`);
  const conditions =
    input.conditions && input.conditions.currency === input.currency
      ? input.conditions
      : null;

  const general = personalPrice(conditions?.aligner_price, "aligner_price");
  const unitPrices = {
    singleLayer:
      personalPrice(
        conditions?.aligner_single_layer_price,
        "aligner_single_layer_price"
      ) ??
      general ??
      base.singleLayerMaterial,
    threeLayer:
      personalPrice(
        conditions?.aligner_three_layer_price,
        "aligner_three_layer_price"
      ) ??
      general ??
      base.threeLayerMaterial,
    matrix:
      personalPrice(conditions?.matrix_price, "matrix_price") ??
      base.hardMatrix,
    retainer:
      personalPrice(
        conditions?.retainer_standard_price,
        "retainer_standard_price"
      ) ?? base.retainer,
    delivery: base.delivery,
  };

  const lines: PriceLine[] = [];
  const addGoods = (
    patient: PatientPriceInput,
    kind: GoodsLineKind,
    quantity: number,
    unitPrice: number
  ) => {
    if (quantity === 0) return;
    lines.push({
      kind,
      patientId: patient.id,
      patientName: patient.name,
      quantity,
      unitPrice,
      amount: quantity * unitPrice,
    });
  };
  for (const patient of input.patients) {
    assertCount(patient.alignerFiles, "alignerFiles");
    assertCount(patient.matrixFiles, "matrixFiles");
    assertCount(patient.retainerFiles, "retainerFiles");
    if (patient.materialType === "three_layer")
      addGoods(
        patient,
        "aligners_three",
        patient.alignerFiles,
        unitPrices.threeLayer
      );
    else
      addGoods(
        patient,
        "aligners_single",
        patient.alignerFiles,
        unitPrices.singleLayer
      );
    addGoods(
      patient,
      patient.matrixType === "soft" ? "matrices_soft" : "matrices_hard",
      patient.matrixFiles,
      unitPrices.matrix
    );
    addGoods(patient, "retainers", patient.retainerFiles, unitPrices.retainer);
  }
  const goodsSubtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  if (!Number.isSafeInteger(goodsSubtotal))
    throw new RangeError("goods subtotal is out of range");

  const hundredths = Math.min(
    FULL_DISCOUNT,
    discountHundredths(conditions?.discount_percentage) +
      (input.isNewCustomer ? NEW_CUSTOMER_BONUS : 0)
  );
  const discountAmount = percentOf(goodsSubtotal, hundredths);

  const delivery = base.delivery;
  lines.push({
    kind: "delivery",
    quantity: 1,
    unitPrice: delivery,
    amount: delivery,
  });
  const beforeFee = goodsSubtotal - discountAmount + delivery;
  const serviceFee = Math.max(0, base.minimumOrder - beforeFee);
  if (serviceFee > 0)
    lines.push({
      kind: "service_fee",
      quantity: 1,
      unitPrice: serviceFee,
      amount: serviceFee,
    });

  const comment = conditions?.personal_comment?.trim();
  return {
    currency: input.currency,
    unitPrices,
    lines,
    goodsSubtotal,
    discountPercent: hundredths / 100,
    discountAmount,
    delivery,
    serviceFee,
    total: beforeFee + serviceFee,
    note: comment ? comment : null,
    minimumOrder: base.minimumOrder,
  };
}

/** What a breakdown's discount does to its total, as the summary shows it (issue: a fee that cancels it). */
export interface AppliedDiscount {
  /** How far the discount lowers the total: the undiscounted order's total minus the total. */
  saving: number;
  /** The fee as it tops up the order once only the saving is taken off: goods − saving + delivery + fee = total. */
  serviceFee: number;
  /** "full": the whole discount lowers the total; "partly": the minimum order takes some back; "none": all of it. */
  applies: "full" | "partly" | "none";
}

/**
 * A discount is a saving only as far as it lowers the total: below the minimum order the fee tops
 * the order up to the same amount with or without it. Read from the breakdown alone, so the total
 * and every amount charged stay the calculation's own.
 */
export function appliedDiscount(breakdown: PriceBreakdown): AppliedDiscount {
  const undiscounted = Math.max(breakdown.goodsSubtotal + breakdown.delivery, breakdown.minimumOrder);
  const saving = Math.max(0, Math.min(breakdown.discountAmount, undiscounted - breakdown.total));
  const serviceFee = breakdown.total - (breakdown.goodsSubtotal - saving + breakdown.delivery);
  const applies = saving === breakdown.discountAmount ? "full" : saving === 0 ? "none" : "partly";
  return { saving, serviceFee, applies };
}
