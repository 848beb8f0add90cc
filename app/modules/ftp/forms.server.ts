import { z } from "zod";
import { parseQueueView, queueFiltersSearch } from "./queue";

/** The forms of /backoffice/ftp, parsed with conform on the server (the only check that counts; ADR 053). */

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

const intent = z.union([
  z.literal("process"),
  z.literal("delete"),
  z.string().transform((value, context) => {
    const id = value.startsWith("upload:") ? value.slice("upload:".length) : "";
    if (!uuid.safeParse(id).success) {
      context.addIssue({ code: "custom", message: "unknown intent" });
      return z.NEVER;
    }
    return { upload: id.toLowerCase() };
  }),
]);

export const queueActionSchema = z.object({
  intent,
  /** Selected rows (bulk delete); unknown values are dropped rather than failing the form. */
  ids: z.array(z.string()).default([]).transform((ids) => [...new Set(ids.filter((id) => uuid.safeParse(id).success).map((id) => id.toLowerCase()))]),
  /** The list's query string, to come back to the same filters, page and opened order. */
  back: z
    .string()
    .optional()
    .transform((search) => queueFiltersSearch(parseQueueView(new URLSearchParams(search?.startsWith("?") ? search.slice(1) : ""))) ),
});

