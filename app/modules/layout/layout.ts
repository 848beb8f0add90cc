import { languageFromPath } from "~/modules/i18n/languages";

/** Which parts of the shell a page shows (staff-partner-packer §2 "Global layout rules"). */
export interface LayoutParts {
  header: boolean;
  footer: boolean;
  banner: boolean;
  messenger: boolean;
  cookieNotice: boolean;
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

export function layoutFor(pathname: string): LayoutParts {
  const language = languageFromPath(pathname);
  const path = (language ? pathname.slice(language.length + 1) : pathname).toLowerCase() || "/";
  const any = (...prefixes: string[]) => prefixes.some((prefix) => under(path, prefix));
  return {
    banner: !any("/backoffice", "/order", "/partner", "/packer"),
    header: !any("/backoffice", "/order", "/auth", "/packer"),
    footer: !any("/order", "/backoffice", "/packer"),
    cookieNotice: !any("/packer"),
    // The spec hides it on /backoffice*; the packer station shows nothing beyond packing (issue "Packer station").
    messenger: !path.startsWith("/backoffice") && !any("/packer"),
  };
}

/**
 * What a route's `handle` may say to the document: `hydrate: false`, a page without client code;
 * `skipLink`, a skip link of the page's own before everything else (its target's id and text key).
 */
export interface PageHandle {
  hydrate?: boolean;
  skipLink?: { href: `#${string}`; text: string };
}
