import { Readable } from "node:stream";
import type { BucketName, FileStorage } from "~/modules/storage/storage.server";
import { binaryStlBytes, binaryStlOf } from "./mesh-stl";

/**
 * The binary STL of a PLY or OBJ a doctor sent, made when its upload finishes (ADR 102): the
 * original, already stored and checked, is read back from storage and converted on its way to the
 * STL's key beside it. The caller deletes both keys when this throws.
 */

export const STL_CONTENT_TYPE = "model/stl";
/** How the original is stored (its bytes as received). */
export const SOURCE_CONTENT_TYPES = { ply: "application/x-ply", obj: "model/obj", stl: STL_CONTENT_TYPE } as const;

export async function storeConvertedStl(storage: FileStorage, bucket: BucketName, sourceKey: string, stlKey: string, format: "ply" | "obj", triangles: number): Promise<number> {
  const object = await storage.get(bucket, sourceKey);
  if (!object) throw new Error(`The stored original ${sourceKey} is gone`);
  const body = Readable.from(binaryStlOf(object.body, format, triangles), { objectMode: false, highWaterMark: 64 * 1024 });
  try {
    const { size } = await storage.put(bucket, stlKey, body, { contentType: STL_CONTENT_TYPE, contentLength: binaryStlBytes(triangles) });
    if (size !== binaryStlBytes(triangles)) throw new Error(`Stored ${size} bytes of the STL, not ${binaryStlBytes(triangles)}`);
    return size;
  } finally {
    body.destroy();
    object.body.destroy();
  }
}
