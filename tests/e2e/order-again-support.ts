import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { archStl } from "../support/stl-models";
import { buildOrderIn } from "../support/builders";
import { openDatabase } from "~/modules/db/db.server";
import { dataDir, e2eDatabaseUrl } from "./support";

export const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** A stored object of the server under test (its folder storage). */
export const storedObject = (key: string) => path.join(dataDir, "storage", "orders", ...key.split("/"));

/**
 * A clinic's paid order, arranged outside the pages (ADR 071's journeys): one patient with three
 * aligner models (different bytes each, declared jaw and step, names that say neither) stored in the
 * server's storage, and the clinic's conditions — three-layer aligners at 6 000 ₽, 10 % off.
 */
export async function pastOrderWithAligners(email: string) {
  const db = await openDatabase({ kind: "postgres", url: e2eDatabaseUrl() }, { poolSize: 2 });
  try {
    const order = await buildOrderIn(db, "paid", { email, fullName: "Снова Светлана Сергеевна", phone: "+7 900 111-22-33", address: "Казань, ул. Баумана, 5" });
    const folder = `${order.code}_1`;
    const aligners = ["scan-a.stl", "scan-b.stl", "scan-c.stl"].map((name, index) => {
      const bytes = archStl(60 + index, 48, 22);
      const key = `order_${order.id}/${folder}/aligners/${name.replace(".stl", "")}_1700000000000.stl`;
      fs.mkdirSync(path.dirname(storedObject(key)), { recursive: true });
      fs.writeFileSync(storedObject(key), bytes);
      return { name, key, hash: sha256(bytes), info: { originalName: name, storagePath: key, url: `/files/orders/${key}`, type: "model/stl", size: bytes.length, triangles: 12, jaw: index === 1 ? "lower" : "upper", stepNumber: 3 + Math.floor(index / 2), confirmed: true } };
    });
    await db
      .insertInto("orders_patients")
      .values({ order_id: order.id, patient_name: "Повторова Полина", folder_name: folder, material_type: "three_layer", cut_type: "wavy", matrix_type: "hard", matrix_files_info: "[]", aligner_files_info: JSON.stringify(aligners.map((file) => file.info)), retainer_files_info: "[]" })
      .execute();
    await db.insertInto("client_settings").values({ email, aligner_three_layer_price: 600_000, discount_percentage: "10" }).onConflict((oc) => oc.column("email").doNothing()).execute();
    return { order, aligners };
  } finally {
    await db.destroy();
  }
}
