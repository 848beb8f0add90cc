import { createContext, useContext } from "react";
import { heldTexts } from "~/modules/i18n/texts-cache";
import type { Messages } from "~/modules/i18n/translate";

/**
 * The shared interface texts of a document's key. On the server entry.server provides them (they
 * are in memory, `overrides.server.ts`), since the root loader's data carries only the key; in the
 * browser they come from the texts cache, filled before hydration.
 */
const ServerTextsContext = createContext<Messages | undefined>(undefined);

export const ServerTextsProvider = ServerTextsContext.Provider;

export function useSharedTexts(key: string | undefined): Messages | undefined {
  const server = useContext(ServerTextsContext);
  if (server) return server;
  return key ? heldTexts(key) : undefined;
}
