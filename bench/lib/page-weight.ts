import http from "node:http";
import zlib from "node:zlib";

/**
 * What a browser receives for one page (DESIGN §7): the document fetched with
 * `Accept-Encoding: gzip`, then every stylesheet and every script it references (modulepreload
 * links, script src and the module imports of its inline scripts). Bytes are the response bodies
 * as they came over the wire (gzip where the server compressed), headers not counted.
 */
export interface Transfer {
  status: number;
  bytes: number;
  encoding: string | undefined;
  body: Buffer;
  location: string | undefined;
}

export function getRaw(url: string, headers: Record<string, string> = {}): Promise<Transfer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { "Accept-Encoding": "gzip", ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: response.statusCode ?? 0,
          bytes: body.length,
          encoding: response.headers["content-encoding"],
          body,
          location: response.headers.location,
        });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

export function decode(transfer: Transfer): string {
  const body = transfer.encoding === "gzip" ? zlib.gunzipSync(transfer.body) : transfer.body;
  return body.toString("utf8");
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** Same-origin stylesheets and scripts a document references, each once. */
export function assetsOf(html: string): { css: string[]; js: string[] } {
  const css = new Set<string>();
  const js = new Set<string>();
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const rel = attribute(tag, "rel");
    const href = attribute(tag, "href");
    if (!href || !href.startsWith("/")) continue;
    if (rel === "stylesheet") css.add(href);
    if (rel === "modulepreload") js.add(href);
  }
  for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
    const src = attribute(tag, "src");
    if (src?.startsWith("/")) js.add(src);
  }
  // Remix's inline module script imports the entry, root and route modules.
  for (const [, script] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const [, specifier] of script!.matchAll(/\bimport\s*(?:[^"'();]*?\bfrom\s*)?\(?\s*"(\/[^"]+\.js)"/g)) js.add(specifier!);
  }
  return { css: [...css], js: [...js] };
}

export interface PageWeight {
  path: string;
  status: number;
  /** Document as sent (gzip when the server compressed it). */
  html: number;
  htmlEncoding: string | undefined;
  htmlRaw: number;
  /** Raw bytes of the inline scripts (Remix context, route module imports, loader data). */
  inlineScriptRaw: number;
  css: number;
  js: number;
  cssFiles: Array<{ href: string; bytes: number }>;
  jsFiles: Array<{ href: string; bytes: number }>;
  text: string;
}

export async function pageWeight(base: string, pagePath: string, cookie = ""): Promise<PageWeight> {
  const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
  const document = await getRaw(`${base}${pagePath}`, headers);
  const text = decode(document);
  const { css, js } = assetsOf(text);
  const sizes = async (hrefs: string[]) => {
    const files = [];
    for (const href of hrefs) {
      const asset = await getRaw(`${base}${href}`, headers);
      if (asset.status !== 200) throw new Error(`${href} (from ${pagePath}): HTTP ${asset.status}`);
      files.push({ href, bytes: asset.bytes });
    }
    return files;
  };
  const cssFiles = await sizes(css);
  const jsFiles = await sizes(js);
  const sum = (files: Array<{ bytes: number }>) => files.reduce((total, file) => total + file.bytes, 0);
  return {
    path: pagePath,
    status: document.status,
    html: document.bytes,
    htmlEncoding: document.encoding,
    htmlRaw: Buffer.byteLength(text),
    inlineScriptRaw: [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].reduce((sum, match) => sum + Buffer.byteLength(match[1]!), 0),
    css: sum(cssFiles),
    js: sum(jsFiles),
    cssFiles,
    jsFiles,
    text,
  };
}
