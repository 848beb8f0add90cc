import * as z from "zod/mini";
import { optionalText } from "~/modules/validation/fields";

/** The language picker: the language chosen (an unknown one is a bad request) and the page to return to. */
export const languageChoiceSchema = z.object({ lng: optionalText, redirectTo: optionalText });
