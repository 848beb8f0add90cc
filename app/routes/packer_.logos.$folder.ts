import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { requirePacker } from "~/modules/auth/guards.server";
import { getLocale } from "~/modules/http/request/request-context.server";
import { LOGO_CONTENT_TYPES, type LogoContentType } from "~/modules/packer/logo-file";
import { logoKeyOfFolder } from "~/modules/packer/packer.server";
import { getStorage } from "~/modules/storage/storage.server";
import { textAnswer } from "~/modules/http/answers/answers.server";

/**
 * A client's logo for the packer pages. Cached for an hour by the packer's browser only (the URL is
 * versioned, so a replaced logo shows at once); an SVG can never run script: it is served as
 * image/svg+xml under a policy that allows no script, no fetch and no embedding, only inline styles
 * (the server adds X-Content-Type-Options: nosniff to every response).
 */
const LOGO_HEADERS = {
  "Cache-Control": "private, max-age=3600",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
  "Content-Disposition": "inline",
};

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { language } = await getLocale(request, context);
  await requirePacker(request, context, () => textAnswer(language, 403, "forbidden", { "Cache-Control": "no-store" }));
  const key = logoKeyOfFolder(params.folder ?? "");
  const object = key ? await getStorage().get("logos", key) : null;
  if (!object) return textAnswer(language, 404, "notFound", { "Cache-Control": "no-store" });
  const contentType = LOGO_CONTENT_TYPES.includes(object.contentType as LogoContentType) ? object.contentType! : "application/octet-stream";
  return new Response(createReadableStreamFromReadable(object.body), {
    headers: { ...LOGO_HEADERS, "Content-Type": contentType, "Content-Length": String(object.size) },
  });
}
