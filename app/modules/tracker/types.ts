/** The task tracker's interface (Pyrus, or disabled), imported by the factory and by each implementation. */
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
