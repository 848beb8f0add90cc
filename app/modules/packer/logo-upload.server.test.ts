import { parseMultipartFormData } from "~/modules/uploads/multipart.server";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { text as readText } from "node:stream/consumers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFolderStorage } from "~/modules/storage/folder-storage.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { MAX_LOGO_BYTES } from "./logo-file";
import { createLogoUploadHandler, LogoRequestTooLarge } from "./logo-upload.server";

const KEY = "info_40clinic_ru-1234abcd/info_40clinic_ru";
const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const png = (size: number) => {
  const data = new Uint8Array(size);
  data.set(PNG_HEAD);
  return data;
};
const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>';

/**
 * The form as a browser sends it: encoded whole first, so a refusal that stops reading midway cancels
 * a plain byte stream (undici's own FormData stream throws "already closed" past a cancel, outside the test).
 */
async function upload(parts: Array<[string, Blob | string, string?]>): Promise<Request> {
  const form = new FormData();
  for (const [name, value, fileName] of parts) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, value, fileName);
  }
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  return new Request("http://localhost/packer/logo", { method: "POST", body, headers: { "Content-Type": encoded.headers.get("Content-Type")! } });
}

describe("logo upload handler", () => {
  let dir: string;
  let storage: FileStorage;

  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), "logo-upload-"));
    storage = createFolderStorage({ kind: "folder", dir }, { orders: "orders", logos: "logos" });
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  async function run(request: Promise<Request>) {
    const logo = createLogoUploadHandler({ storage, key: KEY });
    await parseMultipartFormData(await request, logo.handler);
    return logo.result();
  }

  it("stores an SVG with its content type, then replaces it with a PNG", async () => {
    expect(await run(upload([["logo", new Blob([svg]), "logo.svg"]]))).toEqual({ ok: true, contentType: "image/svg+xml", size: svg.length });
    const stored = await storage.get("logos", KEY);
    expect(stored?.contentType).toBe("image/svg+xml");
    expect(await readText(stored!.body)).toBe(svg);

    const big = png(MAX_LOGO_BYTES); // exactly the limit is allowed
    expect(await run(upload([["logo", new Blob([big]), "Logo.PNG"]]))).toEqual({ ok: true, contentType: "image/png", size: MAX_LOGO_BYTES });
    expect(await storage.head("logos", KEY)).toMatchObject({ size: MAX_LOGO_BYTES, contentType: "image/png" });
  });

  it("refuses a file over 2 MiB and keeps the logo there was", async () => {
    await run(upload([["logo", new Blob([svg]), "logo.svg"]]));
    expect(await run(upload([["logo", new Blob([png(MAX_LOGO_BYTES + 1)]), "logo.png"]]))).toEqual({ ok: false, reason: "size" });
    expect(await storage.head("logos", KEY)).toMatchObject({ size: svg.length, contentType: "image/svg+xml" });
    expect(await fsp.readdir(path.join(dir, ".tmp")).catch(() => [])).toEqual([]);
  });

  it("refuses a wrong extension, a renamed file and an empty file, storing nothing", async () => {
    expect(await run(upload([["logo", new Blob(["GIF89a"]), "logo.gif"]]))).toEqual({ ok: false, reason: "format" });
    expect(await run(upload([["logo", new Blob(["<html><script>alert(1)</script></html>"]), "logo.svg"]]))).toEqual({ ok: false, reason: "content" });
    expect(await run(upload([["logo", new Blob([png(100)]), "logo.jpg"]]))).toEqual({ ok: false, reason: "content" });
    expect(await run(upload([["logo", new Blob([]), "logo.png"]]))).toEqual({ ok: false, reason: "empty" });
    expect(await storage.head("logos", KEY)).toBeNull();
  });

  it("reads no file when none was chosen, and ignores other fields and files", async () => {
    expect(await run(upload([["back", "/packer?q=1"], ["logo", new Blob([]), ""]]))).toBeNull();
    expect(await run(upload([["other", new Blob([png(10)]), "x.png"], ["logo", new Blob([svg]), "logo.svg"], ["logo", new Blob([png(10)]), "second.png"]]))).toMatchObject({
      ok: true,
      contentType: "image/svg+xml",
    });
    expect((await storage.head("logos", KEY))?.contentType).toBe("image/svg+xml");
  });

  it("stops a request that carries more than a logo's worth of other data", async () => {
    await expect(run(upload([["junk", new Blob([new Uint8Array(MAX_LOGO_BYTES)]), "junk.bin"]]))).rejects.toBeInstanceOf(LogoRequestTooLarge);
  });
});
