import type { FileType, Order, Patient } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { shortOrderNumber } from "~/modules/orders/orders.server";
import type { OrderStatus } from "~/modules/orders/status";
import { filesOf } from "~/modules/orders/files.server";
import { listPatients } from "~/modules/orders/patients.server";
import type { TrackerField, TrackerRequest } from "./types";

/**
 * The task the production team gets in the tracker, built from the order, its patients and links to
 * their files. Field names and values are in Russian: they match the tracker form and its catalogues,
 * whatever language the staff member reads the back-office in.
 */

/** Send to tracker is offered for paid and pending orders only (staff side §4). */
export const canSendToTracker = (status: OrderStatus) => status === "paid" || status === "pending";

const MATERIAL = { single_layer: "1-слойный", three_layer: "3-слойный" } as const;
const CUT = { wavy: "Волнистая", straight: "Прямая" } as const;
const MATRIX = { soft: "Мягкая", hard: "Твердая" } as const;
const KINDS: Array<{ type: FileType; label: string; skip: keyof Pick<Patient, "skip_matrix" | "skip_aligners" | "skip_retainers"> }> = [
  { type: "matrix", label: "Матрицы", skip: "skip_matrix" },
  { type: "aligners", label: "Элайнеры", skip: "skip_aligners" },
  { type: "retainer", label: "Ретейнеры", skip: "skip_retainers" },
];

function patientText(patient: Patient, index: number): string {
  const lines = [`${index + 1}. ${patient.patient_name} (папка ${patient.folder_name})`];
  const traits = [
    patient.material_type ? `материал: ${MATERIAL[patient.material_type]}` : null,
    patient.cut_type ? `обрезка: ${CUT[patient.cut_type]}` : null,
    patient.matrix_type ? `матрица: ${MATRIX[patient.matrix_type]}` : null,
  ].filter(Boolean);
  if (traits.length) lines.push(`   ${traits.join("; ")}`);
  if (patient.additional_comments?.trim()) lines.push(`   Комментарий: ${patient.additional_comments.trim()}`);
  for (const kind of KINDS) {
    const files = patient[kind.skip] ? [] : filesOf(patient, kind.type);
    lines.push(`   ${kind.label} (${files.length}): ${files.length ? files.map((file) => file.originalName).join(", ") : "—"}`);
  }
  return lines.join("\n");
}

function fileLinks(patients: Patient[], origin: string): string {
  return patients
    .flatMap((patient) =>
      KINDS.flatMap((kind) => (patient[kind.skip] ? [] : filesOf(patient, kind.type)).map((file) => `${patient.patient_name} / ${kind.label} / ${file.originalName}: ${new URL(file.url, origin).toString()}`)),
    )
    .join("\n");
}

export function trackerRequestOf(order: Order, patients: Patient[], options: { formId: string | null; origin: string }): TrackerRequest {
  const first = patients[0];
  const material = order.material_type ?? first?.material_type ?? null;
  const cut = order.cut_type ?? first?.cut_type ?? null;
  const matrix = order.matrix_type ?? patients.find((patient) => patient.matrix_type)?.matrix_type ?? null;
  const candidates: Array<[string, string | number | null | undefined]> = [
    ["Номер заказа", shortOrderNumber(order.id)],
    ["ID заказа", order.id],
    ["Дата заказа", order.created_at.toISOString().slice(0, 10)],
    ["Клиент", order.full_name],
    ["E-mail", order.email],
    ["Телефон", order.phone],
    ["Адрес доставки", order.address],
    ["Комментарий к доставке", order.delivery_comment],
    ["Комментарий к заказу", order.additional_comments],
    ["Сумма", order.total_cost === null ? null : Number(order.total_cost) / 100],
    ["Валюта", order.currency.toUpperCase()],
    ["Статус оплаты", order.status === "pending" ? "Ожидает оплаты" : "Оплачен"],
    ["Материал", material ? MATERIAL[material] : null],
    ["Тип обрезки", cut ? CUT[cut] : null],
    ["Тип матрицы", matrix ? MATRIX[matrix] : null],
    ["Количество пациентов", patients.length],
    ["Пациенты", patients.map(patientText).join("\n")],
    ["Ссылки на файлы", fileLinks(patients, options.origin)],
  ];
  const fields: TrackerField[] = candidates
    .filter((entry): entry is [string, string | number] => entry[1] !== null && entry[1] !== undefined && String(entry[1]).trim() !== "")
    .map(([name, value]) => ({ name, value }));
  return { formId: options.formId, fields };
}

export async function buildTrackerRequest(db: DB, order: Order, options: { formId: string | null; origin: string }): Promise<TrackerRequest> {
  return trackerRequestOf(order, await listPatients(db, order.id), options);
}
