import { useCallback, useEffect, useRef } from "react";

/**
 * A module the page checks its forms with, fetched once the page is idle after hydration or at the
 * first focus in the form (`warm`), whichever comes first (ADR 053): not part of what the page loads
 * before it can be used. Until it arrives `loaded.current` is null, and a form sent then goes to the
 * server unchecked — the server decides anyway. A failed fetch is tried again at the next `warm`.
 */
export function useIdleImport<M>(load: () => Promise<M>) {
  const loaded = useRef<M | null>(null);
  const started = useRef(false);
  const warm = useCallback(() => {
    if (started.current) return;
    started.current = true;
    load().then(
      (module) => (loaded.current = module),
      () => (started.current = false),
    );
  }, [load]);
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(warm);
    return () => cancel(handle);
  }, [warm]);
  return { loaded, warm };
}
