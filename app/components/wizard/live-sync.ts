import { useEffect, useRef, useState } from "react";

/** Production file server status of the files, polled while the tab is visible (less often when nothing changes). */
export function useLiveSync(orderId: string | undefined, initial: Record<string, string>) {
  const [statuses, setStatuses] = useState(initial);
  const key = JSON.stringify(initial);
  const pending = Object.values(initial).some((status) => status !== "completed");
  const delay = useRef(5000);
  useEffect(() => setStatuses(JSON.parse(key)), [key]);
  useEffect(() => {
    if (!orderId || !pending) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = key;
    const poll = async () => {
      if (document.hidden) return; // resumed by visibilitychange
      try {
        const response = await fetch(`/uploads/status?order=${orderId}`, { headers: { Accept: "application/json" } });
        const { files } = (await response.json()) as { files: Record<string, string> };
        const seen = JSON.stringify(files);
        delay.current = seen === last ? Math.min(delay.current * 2, 60000) : 5000;
        last = seen;
        setStatuses((current) => ({ ...current, ...files }));
      } catch {
        delay.current = Math.min(delay.current * 2, 60000);
      }
      timer = setTimeout(poll, delay.current);
    };
    const onVisible = () => {
      if (document.hidden) return;
      clearTimeout(timer);
      delay.current = 5000;
      void poll();
    };
    timer = setTimeout(poll, delay.current);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [orderId, pending, key]);
  return statuses;
}
