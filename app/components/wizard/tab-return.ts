import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { Notify } from "./resumable-upload";

/** Customer-side §4 "Tab visibility": 500 ms after the tab shows again, say what goes on; refetch the order when idle. */
export function useTabReturn(uploading: boolean, notify: Notify) {
  const revalidator = useRevalidator();
  const state = useRef({ uploading, revalidator });
  state.current = { uploading, revalidator };
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      clearTimeout(timer);
      if (document.hidden) return;
      timer = setTimeout(() => {
        if (state.current.uploading) return notify({ type: "info", title: "uploads.tab.uploading" });
        notify({ type: "info", title: "uploads.tab.continue" });
        state.current.revalidator.revalidate();
      }, 500);
    };
    document.addEventListener("visibilitychange", onChange);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onChange);
    };
  }, [notify]);
}
