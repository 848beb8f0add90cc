import { unstable_usePrompt, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import type { ToastMessage } from "~/components/toast";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatFileSize } from "~/modules/i18n/file-size";
import { hasMeshExtension, isFileType } from "~/modules/uploads/file-names";
import { fileListSaveFailure } from "~/modules/uploads/save-failure";
import type { UploadReply, UploadTarget } from "./tus-upload.client";

/**
 * The upload step with JavaScript (issue 4): chosen files go through the resumable tus upload
 * (loaded on demand), each with a progress bar, bytes and time left — one percentage, of the file's
 * bytes sent within the chunk in flight and at least those the server acknowledged, 100 % only once
 * the file is recorded with its queue entry (ADR 054, 096); the
 * overall count; the display hides 1.5 s after the end; the "Загружено файлов: X/Y" toast; a guard
 * against leaving mid-upload.
 * Beside it: the uploads a closed tab left (interrupted-uploads.tsx), the file server status of the
 * files (live-sync.ts) and what the tab says when shown again (tab-return.ts).
 * Without JavaScript none of this runs and the step stays a plain multipart form.
 *
 * The uploads live in a store of this module, not in a step (ADR 054): the doctor moves on while
 * they go up, every step shows what is still in flight, a failed file stays listed (retry, remove)
 * until the doctor decides, and the summary's payment waits for the files still going up.
 */

export type Toast = Parameters<typeof ToastMessage>[0]["toast"];
export type Notify = (toast: Toast) => void;

type Stage = "waiting" | "sending" | "finishing" | "done" | "failed";
export interface UploadItem {
  id: number;
  name: string;
  size: number;
  /** The file's bytes sent: those the server acknowledged, and within the chunk in flight those on the wire (ADR 096). */
  sent: number;
  /** The upload's bytes for `sent`: fewer when the browser compresses (ADR 033). */
  wire: number;
  /** The upload's bytes the server acknowledged (its offset): only these make the file stored. */
  held: number;
  stage: Stage;
  /** When the upload should end (Date.now's clock), while the estimate is stable (upload-progress.ts). */
  finishAt?: number;
  error?: string;
  cancel?: () => void;
  /** Where the file goes, and the file itself for a retry. */
  target: UploadTarget;
  file: File;
  /** The tus upload's id once the server holds it: the step's form names it ("in_flight"). */
  uploadId?: string;
}

/** The page's uploads, kept across steps (ADR 054). */
let uploadList: UploadItem[] = [];
const listeners = new Set<() => void>();
function setUploadList(change: (list: UploadItem[]) => UploadItem[]) {
  uploadList = change(uploadList);
  for (const listener of listeners) listener();
}
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const readList = () => uploadList;
const noUploads: UploadItem[] = [];

export const isInFlight = (item: UploadItem) => item.stage !== "done" && item.stage !== "failed";
export const isFor = (item: UploadItem, target: { patientId: string; type: string }) => item.target.patientId === target.patientId && item.target.type === target.type;

const MAX_BYTES = 104_857_600;
const PARALLEL = 2;
const HIDE_AFTER_MS = 1500;
let nextId = 1;

/**
 * The content check's first look, before sending a byte (uploads/stl.ts; the server decides); loaded with the first file chosen.
 * A PLY must start with "ply"; an OBJ is text the server reads whole (ADR 102).
 */
async function precheck(file: File): Promise<"ok" | "truncated" | "not_stl" | "not_mesh" | "empty"> {
  if (!file.size) return "empty";
  if (/\.ply$/i.test(file.name)) return /^ply\s$/.test(new TextDecoder("latin1").decode(await file.slice(0, 4).arrayBuffer())) ? "ok" : "not_mesh";
  if (/\.obj$/i.test(file.name)) return "ok";
  // Offline before it arrived: the file goes as chosen, and the server's check decides.
  const reader = await import("~/modules/uploads/stl").catch(() => null);
  if (!reader) return "ok";
  return reader.precheckStl(new Uint8Array(await file.slice(0, 84).arrayBuffer()), file.size);
}

export function useResumableUploads(target: UploadTarget | null, notify: Notify) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const items = useSyncExternalStore(subscribe, readList, () => noUploads);
  const active = items.some(isInFlight);
  const update = (id: number, change: Partial<UploadItem> | ((item: UploadItem) => Partial<UploadItem>)) =>
    setUploadList((list) => list.map((item) => (item.id === id ? { ...item, ...(typeof change === "function" ? change(item) : change) } : item)));

  const start = useCallback(
    async (files: File[], to: UploadTarget | null = target) => {
      if (!to || files.length === 0) return;
      const refused = { format: 0, size: 0 };
      const lines: NonNullable<Toast["lines"]> = [];
      const accepted: Array<{ file: File; item: UploadItem }> = [];
      for (const file of files) {
        let verdict: Awaited<ReturnType<typeof precheck>>;
        if (!hasMeshExtension(file.name)) refused.format++;
        else if (file.size > MAX_BYTES) refused.size++;
        else if ((verdict = await precheck(file)) !== "ok") lines.push({ key: "wizard.upload.fileFailed", values: { name: file.name, causeKey: `wizard.upload.causes.${verdict}` } });
        else accepted.push({ file, item: { id: nextId++, name: file.name, size: file.size, sent: 0, wire: 0, held: 0, stage: "waiting", target: to, file } });
      }
      if (refused.format) notify({ type: "error", title: "uploads.errors.formatTitle", description: "wizard.upload.formatError", values: { count: refused.format } });
      if (refused.size) notify({ type: "error", title: "uploads.errors.sizeTitle", description: "wizard.upload.sizeError", values: { count: refused.size } });
      if (accepted.length === 0) {
        if (!refused.format && !refused.size) notify({ type: "error", title: "wizard.upload.noValidTitle", description: "wizard.upload.noValidText", lines });
        return;
      }
      setUploadList((list) => [...list.filter((item) => item.stage !== "done"), ...accepted.map(({ item }) => item)]);

      const { startUpload } = await import("./tus-upload.client");
      let stored = 0;
      let unsaved = 0;
      // What compression saved on the files that went up: the file bytes and what the network carried.
      const carried = { file: 0, wire: 0 };
      const queue = [...accepted];
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const { file, item } = next;
          let lastWire = 0;
          const running = startUpload(file, to, {
            onCreated: (uploadId) => update(item.id, { uploadId }),
            onAcknowledged({ sent, wire, finishAt }) {
              lastWire = wire;
              // An answer that arrives after the upload was cancelled or failed leaves it settled, with its retry and removal.
              update(item.id, (current) => (current.stage === "failed" || current.stage === "done" ? {} : { sent, wire, held: wire, finishAt, stage: sent < file.size ? "sending" : "finishing" }));
            },
            onSending({ sent, wire }) {
              // Within the chunk in flight: the bar moves, the file is not stored until the server says so.
              update(item.id, (current) => (current.stage === "sending" ? { sent: Math.min(sent, file.size - 1), wire } : {}));
            },
          });
          update(item.id, { stage: "sending", cancel: running.cancel });
          const reply: UploadReply = await running.done;
          if (reply.ok) {
            stored++;
            if (lastWire > 0 && lastWire < file.size) {
              carried.file += file.size;
              carried.wire += lastWire;
            }
          }
          else if (reply.error === "save") unsaved++;
          else lines.push({ key: "wizard.upload.fileFailed", values: { name: file.name, causeKey: `uploads.causes.${reply.error}` } });
          update(item.id, reply.ok ? { stage: "done", sent: file.size, finishAt: undefined, cancel: undefined } : { stage: "failed", error: reply.error, finishAt: undefined, cancel: undefined });
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL, accepted.length) }, worker));
      // A list the database would not save: "Ошибка сохранения" in the plain form's words (customer side §8).
      const saveFailure = unsaved && isFileType(to.type) ? fileListSaveFailure(to.type) : null;
      // "Sent 48 MB for 100 MB": the saving, said once the files are up (ADR 033).
      const saving = carried.wire > 0 ? [{ key: "uploads.progress.saved", values: { wire: formatFileSize(carried.wire, i18n.language), total: formatFileSize(carried.file, i18n.language) } }] : [];
      notify(
        saveFailure
          ? { type: "error", ...saveFailure, lines: stored ? [...lines, { key: "wizard.upload.successText", values: { done: stored, total: files.length } }] : lines }
          : stored
          ? { type: lines.length ? "warning" : "success", title: "wizard.upload.successTitle", description: "wizard.upload.successText", values: { done: stored, total: files.length }, lines: [...lines, ...saving] }
          : { type: "error", title: "uploads.errors.failedTitle", description: "wizard.upload.noValidText", lines },
      );
      revalidator.revalidate();
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [target?.orderId, target?.patientId, target?.type, notify],
  );

  /** A failed file again, from the start; or off the list. */
  const retry = useCallback(
    (item: UploadItem) => {
      setUploadList((list) => list.filter((other) => other.id !== item.id));
      void start([item.file], item.target);
    },
    [start],
  );
  const remove = useCallback((item: UploadItem) => setUploadList((list) => list.filter((other) => other.id !== item.id)), []);

  // The display hides 1.5 s after everything reached 100 % (customer-side §4 "File upload"); a failed file stays until retried or removed.
  const finished = items.some((item) => item.stage === "done");
  useEffect(() => {
    if (active || !finished) return;
    const timer = setTimeout(() => setUploadList((list) => list.filter((item) => item.stage !== "done")), HIDE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [active, finished]);

  // Leaving mid-upload asks first: the browser's own prompt, and one for links inside the app.
  useEffect(() => {
    if (!active) return;
    const guard = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", guard);
    return () => window.removeEventListener("beforeunload", guard);
  }, [active]);
  // Steps are posts to the same page and do not stop the uploads; going elsewhere asks first.
  unstable_usePrompt({ when: ({ currentLocation, nextLocation }) => active && currentLocation.pathname !== nextLocation.pathname, message: t("uploads.leaveConfirm") });

  return { items, active, start, retry, remove };
}

function useOnline() {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const sync = () => setOnline(navigator.onLine);
    sync();
    window.addEventListener("online", sync);
    window.addEventListener("offline", sync);
    return () => {
      window.removeEventListener("online", sync);
      window.removeEventListener("offline", sync);
    };
  }, []);
  return online;
}

/** Per file: name, stage, bar with percentage, bytes and time left; overall completed/total. */
export function UploadProgress({ items, onRetry, onRemove }: { items: UploadItem[]; onRetry?: (item: UploadItem) => void; onRemove?: (item: UploadItem) => void }) {
  const { t, i18n } = useTranslation();
  const online = useOnline();
  // The time left counts down between the server's acknowledgements.
  const [, tick] = useState(0);
  const counting = items.some((item) => item.finishAt);
  useEffect(() => {
    if (!counting) return;
    const timer = setInterval(() => tick((count) => count + 1), 1000);
    return () => clearInterval(timer);
  }, [counting]);
  if (items.length === 0) return null;
  const size = (bytes: number) => formatFileSize(bytes, i18n.language);
  const done = items.filter((item) => item.stage === "done").length;
  return (
    <section className="upload-progress" aria-live="polite" aria-label={t("uploads.progress.label")}>
      <p className="upload-overall">
        <strong>{t("uploads.progress.overall", { done, total: items.length })}</strong>
        {online ? null : <span className="upload-offline"> {t("uploads.progress.offline")}</span>}
      </p>
      <ul className="plain-list">
        {items.map((item) => {
          // The bytes beside it; 100 only once the server recorded the file (upload-progress.ts percentOf).
          const percent = item.stage === "done" ? 100 : Math.min(item.stage === "sending" ? 99 : 100, Math.floor((item.sent * 100) / item.size));
          const left = item.finishAt && item.stage === "sending" ? Math.ceil((item.finishAt - Date.now()) / 1000) : 0;
          return (
            <li key={item.id} className={`upload-item upload-${item.stage}`} data-acknowledged={item.held}>
              <div className="upload-line">
                <span className="file-name">{item.name}</span>
                <span className="small">
                  {t(`uploads.progress.${item.stage}`)} · {percent} %
                </span>
              </div>
              <div className="progress-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={item.name}>
                <span style={{ width: `${percent}%` }} />
              </div>
              <div className="upload-line small muted">
                <span>
                  {t("uploads.progress.bytes", { sent: size(item.sent), total: size(item.size) })}
                  {item.wire > 0 && item.wire < item.sent ? ` · ${t("uploads.progress.wire", { wire: size(item.wire) })}` : ""}
                  {left <= 0
                    ? ""
                    : ` · ${t("uploads.progress.eta", { time: left < 90 ? t("uploads.progress.seconds", { count: left }) : t("uploads.progress.minutes", { count: Math.ceil(left / 60) }) })}`}
                  {item.error ? ` · ${t(`uploads.causes.${item.error}`)}` : ""}
                </span>
                {item.cancel ? (
                  <button type="button" className="link-button" onClick={item.cancel}>
                    {t("uploads.progress.cancel")}
                  </button>
                ) : null}
                {item.stage === "failed" && onRetry && onRemove ? (
                  <span>
                    <button type="button" className="link-button" onClick={() => onRetry(item)}>
                      {t("uploads.progress.retry")}
                    </button>{" "}
                    <button type="button" className="link-button danger" onClick={() => onRemove(item)}>
                      {t("uploads.progress.remove")}
                    </button>
                  </span>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
