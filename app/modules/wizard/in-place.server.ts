import { data, type AppLoadContext } from "@remix-run/node";
import { cookiePairs } from "~/modules/http/request/cookie-header";
import { cookies } from "~/modules/http/request/cookies.server";
import { isDataRequest } from "~/modules/http/request/request-context.server";
import type { InPlaceAnswer } from "~/modules/http/forms/in-place";
import { readToast } from "~/modules/http/answers/toast.server";
import { loadWizardPage, type WizardLoaderData } from "./loader.server";

/**
 * One round trip per wizard step with JavaScript (ADR 035). Without it, a step's form posts, the
 * server redirects to /order and the browser fetches the next page: a POST, a redirect, a GET. The
 * same POST made by the running page (a `.data` request) is answered with the page that redirect
 * would have shown — the redirect followed here, as the browser would follow it: the same request
 * with its cookies updated by the answer's `Set-Cookie`. A toast the redirect would have carried in
 * its cookie travels in the answer instead. The page's clientAction keeps the page for the
 * clientLoader, and the root does not reload (order.tsx, root.tsx).
 */
export async function answerInPlace(request: Request, context: AppLoadContext, answer: Response) {
  if (!isDataRequest(context) || !isRedirectTo(answer, "/order")) return answer;
  const setCookies = answer.headers.getSetCookie();
  const followed = new Request(new URL("/order", request.url), { headers: followedHeaders(request.headers, setCookies) });
  // The facts of a request are kept per load context (request-context.server): the followed request
  // is a new one, read afresh — the order the action just created is in its cookies.
  const followedContext: AppLoadContext = { ...context };
  const { toast } = await readToast(followed);
  const page = await loadWizardPage({ request: followed, context: followedContext, params: {} });
  const headers = new Headers(page.init?.headers);
  const toastCookie = cookies.toast().name;
  for (const value of setCookies) if (cookieName(value) !== toastCookie) headers.append("Set-Cookie", value);
  const inPlace: InPlaceAnswer<WizardLoaderData> = { inPlace: { page: page.data, toast } };
  return data(inPlace, { headers });
}

function isRedirectTo(answer: Response, path: string) {
  return answer.status >= 300 && answer.status < 400 && answer.headers.get("Location") === path;
}

const cookieName = (setCookie: string) => cookiePairs(setCookie.split(";")[0])[0]?.[0];

/** The request's headers for a GET, its `Cookie` header as the browser would send it after `setCookies`. */
function followedHeaders(original: Headers, setCookies: string[]): Headers {
  const jar = new Map(cookiePairs(original.get("Cookie")));
  for (const setCookie of setCookies) {
    const [pair = "", ...attributes] = setCookie.split(";");
    const [[name, value] = ["", ""]] = cookiePairs(pair);
    if (!name) continue;
    const expired = attributes.some((attribute) => {
      const [key = "", value = ""] = attribute.split("=").map((part) => part.trim());
      return (key.toLowerCase() === "max-age" && Number(value) <= 0) || (key.toLowerCase() === "expires" && Date.parse(value) <= Date.now());
    });
    if (expired) jar.delete(name);
    else jar.set(name, value);
  }
  const headers = new Headers(original);
  for (const name of ["content-type", "content-length", "transfer-encoding"]) headers.delete(name);
  headers.set("Cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
  return headers;
}
