import http from "node:http";
import type { DB } from "~/modules/db/db.server";
import type { FileInfo, FileType, OrderStatus } from "~db/schema";
import { buildOrderIn } from "../../support/builders";

/** Orders as packers see them: clinics with real-looking names and addresses, patients with matrix, aligner and retainer files. */

const CLINICS = [
  { email: "info@ulybka-dental.ru", fullName: "Кузнецова Ольга Викторовна", address: "Москва, ул. Профсоюзная, д. 56, стоматология «Улыбка»" },
  { email: "orto@smile-spb.ru", fullName: "Лебедев Андрей Николаевич", address: "Санкт-Петербург, Невский пр-т, д. 88, офис 12, клиника «Смайл»" },
  { email: "sadykova@kazan-dent.ru", fullName: "Садыкова Алия Ринатовна", address: "Казань, ул. Баумана, д. 44/8, клиника «Казань-Дент»" },
  { email: "zakaz@ortodont-pro.ru", fullName: "Морозов Дмитрий Игоревич", address: "Москва, Ленинский пр-т, д. 32А, «ОртодонтПро»" },
  { email: "clinic@belaya-roza-dent.ru", fullName: "Васильева Наталья Петровна", address: "Санкт-Петербург, ул. Малая Садовая, д. 3, стоматология «Белая роза»" },
  { email: "dr.huber@zahnarzt-wien.com", fullName: "Dr. Anna Huber", address: "Mariahilfer Straße 45, 1060 Wien, Austria" },
];
const PATIENTS = ["Иванов А.", "Смирнова Е.", "Петров П.", "Гарифуллина А.", "Фёдорова М.", "Соколов И.", "Kowalski J.", "Müller S."];
const STATUSES: OrderStatus[] = ["pending", "paid", "processing", "shipped", "completed", "paid", "processing", "cancelled"];

function file(orderId: string, folder: string, type: FileType, originalName: string, index: number): FileInfo {
  const storagePath = `order_${orderId}/${folder}/${type}/file_${index}.stl`;
  return { originalName, storagePath, url: `/files/orders/${storagePath}`, type: "model/stl", size: 84 + 50 * 250_000 };
}

/** Files the way clinics name them: Russian "Шаг 01 верх", English "Subsetup1_Lower", matrices and retainers. */
export function patientFiles(orderId: string, folder: string, steps: number, english: boolean): Record<FileType, FileInfo[]> {
  let index = 0;
  const aligners: FileInfo[] = [];
  for (let step = 1; step <= steps; step++) {
    for (const jaw of english ? ["Upper", "Lower"] : ["верх", "низ"]) {
      const name = english ? `Subsetup${step}_${jaw}.stl` : `Шаг ${String(step).padStart(2, "0")} ${jaw}.stl`;
      aligners.push(file(orderId, folder, "aligners", name, index++));
    }
  }
  return {
    matrix: (english ? ["Maxilla.stl", "Mandible.stl"] : ["Верхняя челюсть.stl", "Нижняя челюсть.stl"]).map((name) => file(orderId, folder, "matrix", name, index++)),
    aligners,
    retainer: [file(orderId, folder, "retainer", english ? "Retainer_upper.stl" : "Ретейнер верх.stl", index++)],
  };
}

export async function addPatient(db: DB, order: { id: string; code: string }, name: string, folderNumber: number, files: Record<FileType, FileInfo[]>) {
  return db
    .insertInto("orders_patients")
    .values({
      order_id: order.id,
      patient_name: name,
      folder_name: `${order.code}_${folderNumber}`,
      matrix_files_info: JSON.stringify(files.matrix),
      aligner_files_info: JSON.stringify(files.aligners),
      retainer_files_info: JSON.stringify(files.retainer),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** `count` non-draft orders, 1–3 patients each with 6–14 aligner steps, as a busy packing day has them. */
export async function buildPackingDay(db: DB, count: number) {
  const orders = [];
  for (let i = 0; i < count; i++) {
    const clinic = CLINICS[i % CLINICS.length]!;
    const order = await buildOrderIn(db, STATUSES[i % STATUSES.length]!, clinic);
    const english = clinic.email.endsWith(".com");
    const patients = 1 + (i % 3);
    for (let p = 1; p <= patients; p++) await addPatient(db, order, PATIENTS[(i + p) % PATIENTS.length]!, p, patientFiles(order.id, `${order.code}_${p}`, 6 + ((i * 3 + p) % 9), english));
    orders.push(order);
  }
  return orders;
}

/** Bytes on the wire for one GET with gzip accepted (the body as sent, before decompression). */
export function transferSize(url: string, cookie = ""): Promise<{ status: number; bytes: number; encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "Accept-Encoding": "gzip", Cookie: cookie } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes: Buffer.concat(chunks).length, encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }));
        response.on("error", reject);
      })
      .on("error", reject);
  });
}
