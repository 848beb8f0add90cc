import { useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** Reloads the page's data every few seconds while the tab is visible (JavaScript only). */
export function useAutoRefresh(intervalMs: number) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const state = useRef({ revalidator, navigation });
  state.current = { revalidator, navigation };
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const refresh = () => {
      const { revalidator: current, navigation: nav } = state.current;
      if (current.state === "idle" && nav.state === "idle") current.revalidate();
    };
    const start = () => {
      clearInterval(timer);
      timer = document.visibilityState === "visible" ? setInterval(refresh, intervalMs) : undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") refresh();
      start();
    };
    start();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [intervalMs]);
}
