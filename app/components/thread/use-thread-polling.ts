import { useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

const FIRST_DELAY_MS = 5_000;
const LONGEST_DELAY_MS = 60_000;

/**
 * New messages of a thread without a reload (ADR 104), with JavaScript only: the page's data is read
 * again after 5 s, twice as long each time nothing new came (up to a minute), at once and from 5 s
 * again when something did or when the tab is shown again; never while the tab is hidden or the page
 * is busy with a navigation or a post — as the files' sync labels poll (wizard/live-sync.ts).
 */
export function useThreadPolling(latestId: string | null) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const current = useRef({ revalidator, navigation, latestId });
  current.current = { revalidator, navigation, latestId };
  const delay = useRef(FIRST_DELAY_MS);
  const seen = useRef(latestId);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      timer = document.hidden ? undefined : setTimeout(poll, delay.current);
    };
    const poll = () => {
      const { revalidator: reader, navigation: nav, latestId: latest } = current.current;
      if (document.hidden) return; // resumed by visibilitychange
      if (reader.state === "idle" && nav.state === "idle") {
        delay.current = latest === seen.current ? Math.min(delay.current * 2, LONGEST_DELAY_MS) : FIRST_DELAY_MS;
        seen.current = latest;
        reader.revalidate();
      }
      schedule();
    };
    const onVisibility = () => {
      if (document.hidden) return clearTimeout(timer);
      delay.current = FIRST_DELAY_MS;
      poll();
    };
    schedule();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, []);
}
