import { expect, type Page, request } from "@playwright/test";

/**
 * A page's layout on a phone, measured from its element boxes in the browser (no JavaScript of the
 * page needed): sideways scroll, text outside its box, and controls or status badges under the
 * messenger button at the top, middle and end of the page. One measure serves the wizard's own check
 * (wizard-layout.spec.ts) and the outside checkers' walk over every page (checkers.ts).
 */

export const PHONE_WIDTHS = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
] as const;

export interface LayoutReport {
  /** How far the page scrolls sideways beyond the screen. */
  sideways: number;
  /** The widest elements past the screen's right edge, when the page scrolls sideways. */
  wide: string[];
  /** Text that reaches outside its own box, a box that clips it, or the screen; parts of a form past its edge. */
  overflowing: string[];
  /** Controls and badges the messenger button lies on, at the top, middle and bottom of the page. */
  covered: string[];
  /** Whether the messenger button is on screen at the page's end; null on pages without one. */
  messengerSeen: boolean | null;
}

/** What the messenger button must never lie on: every control, and every status badge. */
const UNCOVERABLE =
  ":is(a[href], button, input:not([type=hidden]), select, textarea, label, summary, [tabindex]:not([tabindex='-1']), .badge):not(.default-submit, .messenger-button, .messenger-button *, .skip-link)";

/**
 * Measures the page's element boxes in the browser. `text: false` leaves out the walk over every
 * text of `main` (its boxes and the boxes that clip it), the slow part on a long page.
 */
export async function measure(page: Page, options: { text?: boolean } = {}): Promise<LayoutReport> {
  const report: LayoutReport = { sideways: 0, wide: [], overflowing: [], covered: [], messengerSeen: null };
  report.sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (report.sideways > 0) {
    report.wide = await page.evaluate(() => {
      // The innermost elements past the right edge that no scrolling box holds: the ones to fix, not
      // every ancestor they widen nor what a table's own scroll box keeps.
      const held = (element: Element) => {
        for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) if (getComputedStyle(box).overflowX !== "visible") return true;
        return false;
      };
      const past = [...document.body.querySelectorAll("*")].filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1 && !held(element));
      const innermost = past.filter((element) => !past.some((other) => other !== element && element.contains(other)));
      return innermost.slice(0, 8).map((element) => `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}"> "${(element.textContent ?? "").trim().slice(0, 40)}" to ${Math.round(element.getBoundingClientRect().right)} px`);
    });
  }
  if (options.text !== false) report.overflowing = await page.evaluate(() => {
    const found: string[] = [];
    const main = document.querySelector("main");
    if (!main) return found;
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    const inside = (inner: DOMRect, outer: DOMRect) =>
      inner.left >= outer.left - 1 && inner.right <= outer.right + 1 && inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent) continue;
      // Text meant to be read by screen readers only, or drawn by the browser itself, has no box to keep to.
      if (parent.closest("select, option, script, style, template, .visually-hidden, .default-submit, [hidden]")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0);
      if (rects.length === 0) continue;
      let box: Element = parent;
      while (getComputedStyle(box).display.startsWith("inline") || getComputedStyle(box).display === "contents") box = box.parentElement!;
      const clippers: Element[] = [];
      for (let element: Element | null = parent; element && element !== document.body; element = element.parentElement) {
        const style = getComputedStyle(element);
        if (style.overflowX !== "visible" || style.overflowY !== "visible") clippers.push(element);
      }
      const screen = new DOMRect(0, -1e6, window.innerWidth, 2e6);
      for (const rect of rects) {
        const outside = [box, ...clippers].find((element) => !inside(rect, element.getBoundingClientRect()));
        if (outside || !inside(rect, screen)) {
          found.push(`"${text.slice(0, 40)}" outside ${outside ? `<${outside.tagName.toLowerCase()} class="${outside.getAttribute("class") ?? ""}">` : "the screen"}`);
          break;
        }
      }
    }
    // Nothing of a step's form (a button that will not wrap, a wide list) reaches into its margin.
    for (const form of document.querySelectorAll(".wizard-form")) {
      const outer = form.getBoundingClientRect();
      const style = getComputedStyle(form);
      const edge = { left: outer.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft), right: outer.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight) };
      for (const element of form.querySelectorAll("*")) {
        if (element.closest(".visually-hidden, .default-submit, option")) continue;
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        if (box.left < edge.left - 1 || box.right > edge.right + 1) {
          found.push(`<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}"> "${(element.textContent ?? "").trim().slice(0, 30)}" past the form's content`);
        }
      }
    }
    return found;
  });
  if ((await page.locator(".messenger-button").count()) === 0) return report;
  const scrolledFrom = await page.evaluate(() => window.scrollY);
  for (const at of ["top", "middle", "bottom"] as const) {
    const found = await page.evaluate(
      ({ where, uncoverable }) => {
        const end = document.documentElement.scrollHeight - window.innerHeight;
        window.scrollTo(0, where === "top" ? 0 : where === "middle" ? end / 2 : end);
        const bubble = document.querySelector(".messenger-button")!.getBoundingClientRect();
        const onScreen = bubble.bottom > 0 && bubble.top < window.innerHeight;
        const covered = [...document.body.querySelectorAll(uncoverable)].flatMap((control) => {
          const box = control.getBoundingClientRect();
          if (box.width === 0 || box.height === 0) return [];
          const meets = box.left < bubble.right && box.right > bubble.left && box.top < bubble.bottom && box.bottom > bubble.top;
          return meets ? [`${where}: <${control.tagName.toLowerCase()} class="${control.getAttribute("class") ?? ""}"> "${(control.textContent ?? "").trim().slice(0, 30) || control.getAttribute("name")}"`] : [];
        });
        return { covered, onScreen };
      },
      { where: at, uncoverable: UNCOVERABLE },
    );
    report.covered.push(...found.covered);
    if (at === "bottom") report.messengerSeen = found.onScreen;
  }
  await page.evaluate((y) => window.scrollTo(0, y), scrolledFrom);
  return report;
}

/**
 * The page at 360 and 390 px (the viewport resized, measured, then restored): no sideways scroll and
 * nothing under the messenger button, as soft assertions naming the page, width and language. Text
 * outside its box is not walked here (the wizard's own check fails on it); it would cost a walk over
 * every text of each of some 180 pages.
 */
export async function checkPhoneLayout(page: Page, name: string) {
  const viewport = page.viewportSize();
  const language = await page.evaluate(() => document.documentElement.lang);
  try {
    for (const size of PHONE_WIDTHS) {
      await page.setViewportSize(size);
      const report = await measure(page, { text: false });
      const label = `${name} (${language}) at ${size.width} px`;
      expect.soft(report.sideways, `${label} scrolls sideways by ${report.sideways} px: ${report.wide.join("; ")}`).toBeLessThanOrEqual(0);
      expect.soft(report.covered, `${label}: controls or badges under the messenger button`).toEqual([]);
      if (report.messengerSeen !== null) expect.soft(report.messengerSeen, `${label}: the messenger button is reachable at the page's end`).toBe(true);
    }
  } finally {
    if (viewport) await page.setViewportSize(viewport);
  }
}

const LANGUAGES = ["ru", "en", "de", "es", "fr", "it"] as const;

/**
 * The page, as its address shows it, in the other five languages: the language chosen as the
 * picker does (POST /language, which answers with the language cookie and the page's address in that
 * language), measured at both widths, then the browser's language cookie and the page put back as
 * they were. Only for pages whose address alone shows them (a GET page, a wizard step kept in the
 * order), never for a state a form left. The choice is posted from the test (to loopback, with the
 * page's Host and Origin, as the browser would send them: the international host name is resolved
 * only inside the browser), and its cookie given to the browser for the page's host.
 */
export async function checkPhoneLayoutInLanguages(page: Page, name: string) {
  const address = new URL(page.url());
  const back = `${address.pathname}${address.search}`;
  const shown = await page.evaluate(() => document.documentElement.lang);
  const context = page.context();
  const kept = (await context.cookies(address.origin)).find((cookie) => cookie.name === "lng");
  const api = await request.newContext();
  try {
    for (const language of LANGUAGES.filter((other) => other !== shown)) {
      const answer = await api.post(`http://127.0.0.1:${address.port}/language`, {
        form: { lng: language, redirectTo: back },
        headers: { host: address.host, origin: address.origin },
        maxRedirects: 0,
      });
      expect(answer.status(), `the language ${language} chosen for ${name}`).toBe(302);
      const value = /(?:^|\n)lng=([^;]*)/.exec(answer.headers()["set-cookie"] ?? "")?.[1];
      expect(value, `the language cookie for ${language}`).toBeTruthy();
      await context.addCookies([{ name: "lng", value: value!, domain: address.hostname, path: "/", httpOnly: true, sameSite: "Lax", expires: Date.now() / 1000 + 3600 }]);
      await page.goto(new URL(answer.headers().location ?? back, address.origin).toString());
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      await checkPhoneLayout(page, name);
    }
  } finally {
    await api.dispose();
    await context.clearCookies({ name: "lng", domain: address.hostname });
    if (kept) await context.addCookies([kept]);
    await page.goto(address.toString());
  }
}
