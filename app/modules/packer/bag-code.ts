import type { FileType } from "~db/schema";
import type { Jaw } from "~/modules/orders/jaw-and-step";

/**
 * Bag codes (ADR 103): what a bag label's QR code carries and a scanner types into the packer's order
 * page. Digits only — a scanner sends key codes, and a digit's key types the same digit whatever the
 * keyboard layout (a Latin letter becomes a Cyrillic one on a PC switched to Russian). 19 digits:
 *
 *   OOOOOOOOOO PPP K J SSS C
 *   order      patient kind jaw stage check
 *
 * - order: the first 8 hex digits of the order's id (32 bits) in decimal, 10 digits;
 * - patient: the patient's place in packing order (folder order), from 1, 3 digits;
 * - kind: 1 matrix, 2 aligners, 3 retainer;
 * - jaw: 1 upper, 2 lower; 3 upper and 4 lower for a file without a step number (stage then 000);
 * - stage: the step number, 3 digits;
 * - check: the Damm check digit of the 18 before it (every single wrong digit and every swap of two
 *   neighbouring digits is caught).
 * Pure, so the rules are unit-tested without a server.
 */

export const BAG_CODE_LENGTH = 19;

const KINDS: readonly FileType[] = ["matrix", "aligners", "retainer"];

// Damm's quasigroup of order 10 (weakly totally anti-symmetric).
const DAMM = [
  [0, 3, 1, 7, 5, 9, 8, 6, 4, 2],
  [7, 0, 9, 2, 1, 5, 4, 8, 6, 3],
  [4, 2, 0, 6, 8, 7, 1, 3, 5, 9],
  [1, 7, 5, 0, 9, 8, 3, 4, 2, 6],
  [6, 1, 2, 3, 0, 4, 5, 9, 7, 8],
  [3, 6, 7, 4, 2, 0, 9, 5, 8, 1],
  [5, 8, 6, 9, 7, 2, 0, 1, 3, 4],
  [8, 9, 4, 5, 3, 6, 2, 0, 1, 7],
  [9, 4, 3, 8, 6, 1, 7, 2, 0, 5],
  [2, 5, 8, 1, 4, 3, 6, 7, 9, 0],
] as const;

/** The Damm check digit of a string of digits: appended, the whole string checks to 0. */
export function dammDigit(digits: string): number {
  let interim = 0;
  for (const char of digits) interim = DAMM[interim]![Number(char)]!;
  return interim;
}

/** The order's part of its bag codes: the first 32 bits of its id, in decimal. */
export const orderPart = (orderId: string) => String(Number.parseInt(orderId.slice(0, 8), 16)).padStart(10, "0");

export interface BagFacts {
  /** The patient's place in packing order, from 1. */
  patient: number;
  kind: FileType;
  jaw: Jaw;
  step: number | null;
}

export function bagCode(orderId: string, bag: BagFacts): string {
  const jaw = (bag.jaw === "upper" ? 1 : 2) + (bag.step === null ? 2 : 0);
  const body = `${orderPart(orderId)}${String(bag.patient).padStart(3, "0")}${KINDS.indexOf(bag.kind) + 1}${jaw}${String(bag.step ?? 0).padStart(3, "0")}`;
  return `${body}${dammDigit(body)}`;
}

/** A code as printed under the QR code, in groups an eye can follow: "3735928559 001 11 003 7". */
export const groupedBagCode = (code: string) => `${code.slice(0, 10)} ${code.slice(10, 13)} ${code.slice(13, 15)} ${code.slice(15, 18)} ${code.slice(18)}`;

export type ReadBagCode = { ok: true; code: string; order: string; facts: BagFacts } | { ok: false; reason: "not_ours" };

/**
 * What a scanned or typed code says. Spaces and hyphens a person types are dropped; anything else
 * that is not one of our codes — wrong length, letters, a failed check digit, a kind or jaw we never
 * print — is "not ours".
 */
export function readBagCode(typed: string): ReadBagCode {
  const code = typed.replace(/[\s-]/g, "");
  if (!new RegExp(`^\\d{${BAG_CODE_LENGTH}}$`).test(code) || dammDigit(code) !== 0) return { ok: false, reason: "not_ours" };
  const patient = Number(code.slice(10, 13));
  const kind = KINDS[Number(code[13]) - 1];
  const jaw = Number(code[14]);
  if (patient === 0 || !kind || jaw < 1 || jaw > 4) return { ok: false, reason: "not_ours" };
  const step = jaw > 2 ? null : Number(code.slice(15, 18));
  if (step === null && code.slice(15, 18) !== "000") return { ok: false, reason: "not_ours" };
  return { ok: true, code, order: code.slice(0, 10), facts: { patient, kind, jaw: jaw % 2 === 1 ? "upper" : "lower", step } };
}
