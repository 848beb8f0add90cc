import type { AppConfig } from "~/modules/config/config.server";
import { PyrusTaskTracker } from "./pyrus.server";

/**
 * The external task tracker (Pyrus) behind one small interface. Preparing a request (the dry run
 * the back-office shows before sending) always works and needs no network; sending needs the
 * tracker configured (PYRUS_LOGIN, PYRUS_SECURITY_KEY, PYRUS_FORM_ID).
 */

/** A field of the task, by the name it has on the tracker's form ("Номер заказа", "Материал"…). */
export interface TrackerField {
  name: string;
  value: string | number;
}

/** What the dry run shows: the form and the fields built from the order, patients and file links. */
export interface TrackerRequest {
  formId: string | null;
  fields: TrackerField[];
}

/** A catalogue (or choice) value of the form that matched a field's text. */
export interface CatalogItemFound {
  field: string;
  catalogId: number | null;
  itemId: number;
  values: string[];
}

export interface TrackerTask {
  id: string;
  url: string;
}

/** The request as the tracker receives it (field ids, catalogue item ids) and what it found. */
export interface ResolvedRequest {
  body: unknown;
  catalogItems: CatalogItemFound[];
  /** Field names the form does not have, or catalogue texts without an item: left out. */
  skipped: string[];
}

export interface TrackerResult extends ResolvedRequest {
  task: TrackerTask;
  response: unknown;
}

/** One line of the connection test's log; `key` is a translation key under `bo.trackerTest.steps`. */
export interface TestStep {
  key: string;
  values?: Record<string, string | number>;
  ok?: boolean;
}

export interface TaskTracker {
  readonly enabled: boolean;
  send(request: TrackerRequest): Promise<TrackerResult>;
  /** The request as it would be sent now, and the task as the tracker has it (the result page). */
  describe(request: TrackerRequest, taskId: string): Promise<TrackerResult>;
  /** Gets a token with the configured login and key, logging each step; the token is returned masked. */
  testConnection(log: (step: TestStep) => void): Promise<{ ok: boolean; maskedToken: string | null }>;
}

export class TrackerDisabledError extends Error {
  /** Translation key shown to staff. */
  readonly messageKey = "bo.tracker.disabled";
  constructor() {
    super("The task tracker is not configured (PYRUS_LOGIN, PYRUS_SECURITY_KEY, PYRUS_FORM_ID)");
    this.name = "TrackerDisabledError";
  }
}

/** Used when Pyrus is not configured: sending is refused with a clear message. */
export class DisabledTaskTracker implements TaskTracker {
  readonly enabled = false;
  async send(): Promise<TrackerResult> {
    throw new TrackerDisabledError();
  }
  async describe(): Promise<TrackerResult> {
    throw new TrackerDisabledError();
  }
  async testConnection(log: (step: TestStep) => void) {
    log({ key: "notConfigured", ok: false });
    return { ok: false, maskedToken: null };
  }
}

export function createTaskTracker(config: Pick<AppConfig, "pyrus">): TaskTracker {
  if (!config.pyrus) return new DisabledTaskTracker();
  return new PyrusTaskTracker(config.pyrus);
}

let shared: { key: string; tracker: TaskTracker } | undefined;

/** The process-wide tracker of this configuration (its token is reused until Pyrus refuses it). */
export function getTaskTracker(config: Pick<AppConfig, "pyrus">): TaskTracker {
  const key = JSON.stringify(config.pyrus);
  if (shared?.key !== key) shared = { key, tracker: createTaskTracker(config) };
  return shared.tracker;
}
