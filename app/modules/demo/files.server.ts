import { Readable } from "node:stream";
import type { DB } from "~/modules/db/db.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { storedFileName } from "~/modules/uploads/file-names";
import { storedFilesOf } from "~/modules/orders/files.server";
import { allPatientFileLists } from "~/modules/orders/stored-files.server";
import type { CutType, FileInfo, FileType, MatrixType, MaterialType } from "~db/schema";
import { FILE_TYPES } from "~db/schema";
import { DEMO } from "./data";
import { DEMO_MODEL, DEMO_MODEL_TRIANGLES } from "./model";
import { MINUTE, plus, type Random } from "./random";

/** The demo orders' patients and their files. */

export interface PatientDraft {
  name: string;
  folder: string;
  material: MaterialType;
  cut: CutType;
  matrix: MatrixType;
  comment: string | null;
  files: Record<FileType, FileInfo[]>;
  skipMatrix: boolean;
  skipRetainers: boolean;
  createdAt: Date;
}

function makeFile(random: Random, orderId: string, folder: string, type: FileType, originalName: string, uploadedAt: Date): FileInfo {
  random.int(120_000, 780_000); // once a made-up triangle count; still drawn so the rest of the demo data stays the same
  const storagePath = `order_${orderId}/${folder}/${type}/${storedFileName(originalName, uploadedAt)}`;
  return {
    originalName,
    storagePath,
    url: `/files/orders/${storagePath}`,
    type: "model/stl",
    size: DEMO_MODEL.length,
    triangles: DEMO_MODEL_TRIANGLES,
    uploadedAt: uploadedAt.toISOString(),
  };
}

/**
 * Puts the demo model in storage under every file the demo orders record, where it is not there
 * yet (so it may run again, and after the database was seeded elsewhere). Returns how many it stored.
 */
export async function storeDemoFiles(db: DB, storage: FileStorage): Promise<number> {
  const rows = await allPatientFileLists(db);
  const keys = new Set(rows.flatMap((row) => FILE_TYPES.flatMap((type) => storedFilesOf(row, type).map((file) => file.storagePath))));
  let stored = 0;
  for (const key of keys) {
    if (await storage.head("orders", key)) continue;
    await storage.put("orders", key, Readable.from([DEMO_MODEL]), { contentType: "model/stl", contentLength: DEMO_MODEL.length });
    stored++;
  }
  return stored;
}

export function makePatients(random: Random, order: { id: string; code: string }, count: number, international: boolean, start: Date, usedNames: Set<string>): PatientDraft[] {
  const patients: PatientDraft[] = [];
  let clock = start;
  for (let index = 0; index < count; index++) {
    const pool = international ? DEMO.internationalPatients : DEMO.patientNames;
    let name = random.pick(pool);
    for (let tries = 0; usedNames.has(name) && tries < pool.length; tries++) name = random.pick(pool);
    usedNames.add(name);
    const folder = `${order.code}_${index + 1}`;
    clock = plus(clock, random.int(2, 8) * MINUTE);
    const createdAt = clock;
    const files: Record<FileType, FileInfo[]> = { matrix: [], aligners: [], retainer: [] };

    const skipMatrix = random.chance(0.3);
    if (!skipMatrix) {
      for (const jaw of ["Верхняя челюсть", "Нижняя челюсть"]) {
        clock = plus(clock, random.int(20, 90) * 1000);
        files.matrix.push(makeFile(random, order.id, folder, "matrix", international ? `${jaw === "Верхняя челюсть" ? "Maxilla" : "Mandible"}.stl` : `${jaw}.stl`, clock));
      }
    }
    const alignerSteps = random.int(3, 9);
    for (let stage = 1; stage <= alignerSteps; stage++) {
      for (const jaw of international ? ["Upper", "Lower"] : ["верх", "низ"]) {
        clock = plus(clock, random.int(15, 60) * 1000);
        const number = String(stage).padStart(2, "0");
        const name = international ? `Subsetup${number}_${jaw}.stl` : `Шаг ${number} ${jaw}.stl`;
        files.aligners.push(makeFile(random, order.id, folder, "aligners", name, clock));
      }
    }
    const skipRetainers = random.chance(0.5);
    if (!skipRetainers) {
      clock = plus(clock, random.int(20, 90) * 1000);
      files.retainer.push(makeFile(random, order.id, folder, "retainer", international ? "Retainer_upper.stl" : "Ретейнер верх.stl", clock));
      if (random.chance(0.6)) {
        clock = plus(clock, random.int(20, 90) * 1000);
        files.retainer.push(makeFile(random, order.id, folder, "retainer", international ? "Retainer_lower.stl" : "Ретейнер низ.stl", clock));
      }
    }
    patients.push({
      name,
      folder,
      material: random.pick(["single_layer", "three_layer"] as const),
      cut: random.pick(["wavy", "straight"] as const),
      matrix: international ? "hard" : random.pick(["soft", "hard"] as const),
      comment: random.pick(DEMO.patientComments),
      files,
      skipMatrix,
      skipRetainers,
      createdAt,
    });
  }
  return patients;
}

