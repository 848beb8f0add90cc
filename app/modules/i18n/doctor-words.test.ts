import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES, type Language } from "./languages";
import { STAFF_TEXT_AREAS } from "./text-areas";

/**
 * A doctor's words (ADR 061): the texts a doctor or clinic reads carry none of the words the
 * machinery behind the order is built from. What a doctor reads is decided by the key's area (its
 * first part), every area decided below, so a new area has to be placed before it ships.
 */

type Tree = { [key: string]: string | Tree };
const ROOT = path.resolve(__dirname, "../../..");
const LOCALES_DIR = path.join(ROOT, "locales");

/**
 * Areas a doctor reads: the landing and its shell (header, footer, banner, cookie notice, messenger
 * link), sign-in and its mail, the cabinet and the status mails (`notifications`), the wizard with
 * its uploads, the payment and thank-you pages, the error pages and answers a browser shows, the
 * failure toasts, the partner's own pages (a partner is a clinic too), and the orders a browser left
 * waiting (the landing and the wizard offer them).
 */
const DOCTOR_AREAS = [
  "shell", "header", "language", "footer", "banner", "messenger", "cookies", "home", "landing",
  "auth", "cabinet", "notifications", "toasts", "pagination", "lists", "orderStatus",
  "wizard", "uploads", "payments", "sandbox", "paymentResult", "thankyou",
  "errors", "connection", "answers", "failures", "partners", "orderAgain", "ordersInBrowser",
  "thread",
] as const;

/** Areas only staff read: the back office and its gate, the transfer queue, translations, the packer. */
const STAFF_AREAS = [...STAFF_TEXT_AREAS, "gate", "backoffice"] as const;

/**
 * Areas a doctor reads that this check leaves to another: the legal texts must name what is stored
 * and where (cookies by name, the session, server logs, storage, drafts kept 30 days), as privacy
 * law asks, and are checked with the legal pages.
 */
const NOT_CHECKED_AREAS = ["legal"] as const;

/** Keys inside doctor areas that a doctor never reads, each with its reason. */
const STAFF_KEYS_IN_DOCTOR_AREAS: Array<[prefix: string, reason: string]> = [
  ["answers.upload.", "replies of the resumable-upload protocol, read by the upload program; the page says the upload's cause (uploads.causes)"],
  ["orderStatus.draft", "staff's name of the status; the cabinet hides drafts (customer side §2) and the wizard shows no badge for one"],
  ["partners.backoffice.", "the back office's partner pages"],
  ["payments.backoffice.", "the back office's payment pages"],
  ["thread.bo.", "the back office's thread tab: staff's own words for notes, questions, assignments"],
];

/**
 * The spec's own texts, kept verbatim in Russian (customer side §8, per-file sync labels): allowed
 * only in Russian and only while they equal the spec's words; their translations are ours and say
 * it in a doctor's words.
 */
const SPEC_VERBATIM_RU: Record<string, string> = {
  "wizard.sync.pending": "Ожидает отправки на FTP",
  "wizard.sync.uploading": "Отправка на FTP...",
  "wizard.sync.completed": "Отправлено на FTP",
  "wizard.sync.failed": "Ошибка отправки на FTP",
};

/**
 * The internal terms, by what they belong to. Short on purpose: each is a word a doctor meets only
 * when the machinery leaks into the page, and each has a plain way to say what it means for the
 * order. Plain words that merely sound technical (server, connection, file, format, STL, MB) are
 * not here: doctors use them.
 */
const TERMS: Record<string, Record<Language, RegExp>> = {
  // The upload protocol and HTTP: a doctor chose files and pressed a button.
  "upload protocol": {
    ru: /\btus\b|чанк|смещени|multipart|\bHTTP\b|\b(409|413|422|429)\b/i,
    en: /\btus\b|\bchunks?\b|\boffset\b|multipart|\bHTTP\b|\b(409|413|422|429)\b/i,
    de: /\btus\b|\bchunks?\b|\boffset\b|multipart|\bHTTP\b|\b(409|413|422|429)\b/i,
    es: /\btus\b|\bchunks?\b|desplazamiento|multipart|\bHTTP\b|\b(409|413|422|429)\b/i,
    fr: /\btus\b|\bchunks?\b|\boffset\b|décalage|multipart|\bHTTP\b|\b(409|413|422|429)\b/i,
    it: /\btus\b|\bchunks?\b|\boffset\b|multipart|\bHTTP\b|\b(409|413|422|429)\b/i,
  },
  // How the STL reader sees a file: what a finding means for the order is the doctor's part.
  "STL reader": {
    ru: /байт|треугольн|заголов|вершин/i,
    en: /\bbytes?\b|triangle|\bheader|vert(ex|ices)/i,
    de: /\bbytes?\b|dreieck|\bheader|\bKopf\b|eckpunkt/i,
    es: /\bbytes?\b|triángulo|cabecera|encabezado|vértice/i,
    fr: /\boctets?\b|\bbytes?\b|triangle|en-tête|sommet/i,
    it: /\bbyte\b|triangol|intestazione|vertic/i,
  },
  // Where files go after the upload: the factory's transfer and the storage behind it.
  transfer: {
    ru: /\bs?ftp\b|\bS3\b|бакет|очеред|идемпотент|путь в хранилище/i,
    en: /\bs?ftp\b|\bS3\b|bucket|queue|idempoten|storage path/i,
    de: /\bs?ftp\b|\bS3\b|bucket|warteschlange|idempoten|speicherpfad/i,
    es: /\bs?ftp\b|\bS3\b|bucket|\bcola\b|idempoten|ruta de almacenamiento/i,
    fr: /\bs?ftp\b|\bS3\b|bucket|file d'attente|idempoten|chemin de stockage/i,
    it: /\bs?ftp\b|\bS3\b|bucket|\bcoda\b|idempoten|percorso di archiviazione/i,
  },
  // Sign-in is "signed in / signed out" on a device; the record behind it is ours. Spanish says
  // "iniciar/cerrar sesión", "sesión cerrada" for signing in and out: the singular is the plain word
  // there, the plural (sessions to end) is the record.
  session: {
    ru: /сесси|сеанс/i,
    en: /\bsessions?\b/i,
    de: /sitzung/i,
    es: /sesiones/i,
    fr: /\bsessions?\b/i,
    it: /\bsession[ei]\b/i,
  },
  // A doctor's unpaid order is "the order"; the spec's interface never calls it a draft.
  draft: {
    ru: /черновик/i,
    en: /\bdrafts?\b/i,
    de: /entwurf/i,
    es: /borrador/i,
    fr: /brouillon/i,
    it: /\bbozz[ae]\b/i,
  },
  // Cookies are named in the cookie notice (and the legal texts), where the law wants them named.
  cookie: {
    ru: /cookie|куки/i,
    en: /cookie/i,
    de: /cookie/i,
    es: /cookie/i,
    fr: /cookie/i,
    it: /cookie/i,
  },
};

/** Where a term is the right word after all: the cookie notice names its cookies and what they keep. */
const TERM_ALLOWED_IN: Record<string, string[]> = { cookie: ["cookies."], session: ["cookies."] };

function flatten(tree: Tree, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    return typeof value === "string" ? [[name, value] as [string, string]] : flatten(value, name);
  });
}

/** Every text of a language: key → text. */
function allTexts(language: string): Map<string, string> {
  const dir = path.join(LOCALES_DIR, language);
  return new Map(fs.readdirSync(dir).filter((file) => file.endsWith(".json")).flatMap((file) => flatten(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")))));
}

const areaOf = (key: string) => key.split(".")[0]!;
const isDoctorFacing = (key: string) => (DOCTOR_AREAS as readonly string[]).includes(areaOf(key)) && !STAFF_KEYS_IN_DOCTOR_AREAS.some(([prefix]) => key.startsWith(prefix));

/** The doctor-facing texts of a language that use an internal term: `key (term): text`. */
function leaks(language: Language): string[] {
  const found: string[] = [];
  for (const [key, text] of allTexts(language)) {
    if (!isDoctorFacing(key)) continue;
    if (language === "ru" && SPEC_VERBATIM_RU[key] === text) continue;
    for (const [term, patterns] of Object.entries(TERMS)) {
      if (TERM_ALLOWED_IN[term]?.some((prefix) => key.startsWith(prefix))) continue;
      if (patterns[language].test(text)) found.push(`${key} (${term}): ${text}`);
    }
  }
  return found;
}

describe("a doctor's words", () => {
  it("places every area of the texts: doctor-facing, staff-only, or checked with the legal pages", () => {
    const placed = new Set<string>([...DOCTOR_AREAS, ...STAFF_AREAS, ...NOT_CHECKED_AREAS]);
    const areas = new Set([...allTexts("ru").keys()].map(areaOf));
    expect([...areas].filter((area) => !placed.has(area))).toEqual([]);
    expect(DOCTOR_AREAS.filter((area) => (STAFF_AREAS as readonly string[]).includes(area))).toEqual([]);
  });

  it("checks the wizard, the uploads, the cabinet, the landing, the payment and thank-you pages and the customer mails", () => {
    const checked = [...allTexts("ru").keys()].filter(isDoctorFacing);
    for (const prefix of ["wizard.upload.", "wizard.summary.", "uploads.scan.notes.", "uploads.causes.", "cabinet.", "landing.", "home.", "paymentResult.", "thankyou.", "payments.success.", "auth.mail.", "notifications."]) {
      expect(checked.filter((key) => key.startsWith(prefix)).length, prefix).toBeGreaterThan(0);
    }
  });

  it.each(LANGUAGES)("uses no internal term in a text a doctor reads (%s)", (language) => {
    expect(leaks(language)).toEqual([]);
  });

  it("finds an internal term where one is written", () => {
    // The check itself: the old wording of a reader note and a sign-out toast are caught.
    const caught = (language: Language, text: string) => Object.values(TERMS).some((patterns) => patterns[language].test(text));
    expect(caught("ru", "После последнего треугольника в файле есть лишние байты (37)")).toBe(true);
    expect(caught("en", "Every session has ended.")).toBe(true);
    expect(caught("es", "Cierre todas las sesiones")).toBe(true);
    expect(caught("fr", "repassez-la en brouillon")).toBe(true);
    expect(caught("es", "Iniciar sesión")).toBe(false);
    expect(caught("es", "No se pudo cerrar la sesión")).toBe(false);
    expect(caught("ru", "Нет связи с сервером")).toBe(false);
  });

  it("allows the spec's verbatim Russian texts only while they are the spec's words and in use", () => {
    const spec = fs.readFileSync(path.join(ROOT, "docs/spec-excerpts/customer-side.md"), "utf8");
    const ru = allTexts("ru");
    for (const [key, text] of Object.entries(SPEC_VERBATIM_RU)) {
      expect(spec, key).toContain(`"${text}"`);
      expect(ru.get(key), key).toBe(text);
    }
  });

  it("leaves out of the check only keys that exist", () => {
    const keys = [...allTexts("ru").keys()];
    for (const [prefix] of STAFF_KEYS_IN_DOCTOR_AREAS) expect(keys.some((key) => key.startsWith(prefix)), prefix).toBe(true);
  });
});
