import * as z from "zod/mini";

/**
 * The storage page's buttons (staff side §4 "Files"), a discriminated union on `intent`: deleting
 * one folder by name (a name that finds no folder is said by the toast), or all the trash.
 */
export const filesPageSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("delete_folder"), folder: z._default(z.string(), "") }),
  z.object({ intent: z.literal("delete_trash") }),
]);
