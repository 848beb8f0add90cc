import type { AppConfig } from "~/modules/config/config.server";
import { PyrusTaskTracker } from "./pyrus.server";
import type { TaskTracker, TestStep, TrackerResult } from "./types";

export type { TaskTracker, TestStep, TrackerResult } from "./types";

/**
 * The external task tracker (Pyrus) behind one small interface. Preparing a request (the dry run
 * the back-office shows before sending) always works and needs no network; sending needs the
 * tracker configured (PYRUS_LOGIN, PYRUS_SECURITY_KEY, PYRUS_FORM_ID).
 */

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
