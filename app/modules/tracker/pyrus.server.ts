import type { AppConfig } from "~/modules/config/config.server";
import { maskLogin, maskToken } from "./mask";
import type { CatalogItemFound, ResolvedRequest, TaskTracker, TestStep, TrackerRequest, TrackerResult } from "./types";

/**
 * The Pyrus API client (https://pyrus.com/en/help/api): `POST /auth` with the login and security
 * key gives a bearer token and the API address to use; forms, catalogues and tasks are JSON over
 * HTTPS. A 401 on a call means the token expired: authenticate once more and repeat the call once.
 *
 * Fields are prepared by their names on the form; at sending time the form tells their ids and
 * types, and catalogue (or choice) fields get the id of the item whose text matches.
 */

type PyrusConfig = NonNullable<AppConfig["pyrus"]>;

const TIMEOUT_MS = 15_000;

export class PyrusError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly code: string | null,
  ) {
    super(message);
    this.name = "PyrusError";
  }
}

interface FormField {
  id: number;
  type: string;
  name?: string;
  info?: { catalog_id?: number; options?: Array<{ choice_id: number; choice_value: string }>; fields?: FormField[] };
}

interface Catalog {
  catalog_id: number;
  items?: Array<{ item_id: number; values: string[] }>;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");
const same = (a: string, b: string) => a.trim().toLocaleLowerCase("ru") === b.trim().toLocaleLowerCase("ru");

/** Every field of a form, including those nested in titles (Pyrus groups fields under "title" fields). */
function flattenFields(fields: FormField[] | undefined): FormField[] {
  return (fields ?? []).flatMap((field) => [field, ...flattenFields(field.info?.fields)]);
}

export class PyrusTaskTracker implements TaskTracker {
  readonly enabled = true;
  private token: string | null = null;
  private apiUrl: string;

  constructor(
    private readonly config: PyrusConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.apiUrl = trimSlash(config.apiUrl);
  }

  /** POST /auth. Pyrus answers with the token and the address the account's API lives at. */
  async authenticate(): Promise<string> {
    const response = await this.fetchImpl(`${trimSlash(this.config.apiUrl)}/auth`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ login: this.config.login, security_key: this.config.securityKey }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: string; api_url?: string; error?: string; error_code?: string };
    if (!response.ok || !body.access_token) {
      throw new PyrusError(body.error ?? `Pyrus auth answered HTTP ${response.status}`, response.status, body.error_code ?? null);
    }
    this.token = body.access_token;
    if (body.api_url) this.apiUrl = trimSlash(body.api_url);
    return body.access_token;
  }

  private async call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const token = this.token ?? (await this.authenticate());
      const response = await this.fetchImpl(`${this.apiUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (response.status === 401 && attempt === 0) {
        // Expired or revoked: one new token, one more try.
        this.token = null;
        continue;
      }
      const json = (await response.json().catch(() => null)) as (T & { error?: string; error_code?: string }) | null;
      if (!response.ok || json === null || json.error) {
        throw new PyrusError(json?.error ?? `Pyrus answered HTTP ${response.status} to ${method} ${path}`, response.status, json?.error_code ?? null);
      }
      return json;
    }
  }

  /** The request as Pyrus receives it: field ids from the form, catalogue items by their text. */
  async resolve(request: TrackerRequest): Promise<ResolvedRequest> {
    const formId = request.formId ?? this.config.formId;
    const form = await this.call<{ fields?: FormField[] }>("GET", `/forms/${encodeURIComponent(formId)}`);
    const byName = new Map(flattenFields(form.fields).filter((field) => field.name).map((field) => [field.name!.trim().toLocaleLowerCase("ru"), field]));
    const catalogs = new Map<number, Catalog>();
    const fields: Array<{ id: number; value: unknown }> = [];
    const catalogItems: CatalogItemFound[] = [];
    const skipped: string[] = [];

    for (const { name, value } of request.fields) {
      const field = byName.get(name.trim().toLocaleLowerCase("ru"));
      if (!field) {
        skipped.push(name);
        continue;
      }
      if (field.type === "catalog" && field.info?.catalog_id !== undefined) {
        const catalogId = field.info.catalog_id;
        if (!catalogs.has(catalogId)) catalogs.set(catalogId, await this.call<Catalog>("GET", `/catalogs/${catalogId}`));
        const item = catalogs.get(catalogId)!.items?.find((candidate) => candidate.values.some((text) => same(text, String(value))));
        if (!item) {
          skipped.push(name);
          continue;
        }
        fields.push({ id: field.id, value: { item_id: item.item_id } });
        catalogItems.push({ field: name, catalogId, itemId: item.item_id, values: item.values });
      } else if (field.type === "multiple_choice") {
        const option = field.info?.options?.find((candidate) => same(candidate.choice_value, String(value)));
        if (!option) {
          skipped.push(name);
          continue;
        }
        fields.push({ id: field.id, value: { choice_ids: [option.choice_id] } });
        catalogItems.push({ field: name, catalogId: null, itemId: option.choice_id, values: [option.choice_value] });
      } else {
        fields.push({ id: field.id, value: field.type === "number" || field.type === "money" ? Number(value) : value });
      }
    }
    return { body: { form_id: Number(formId), fields }, catalogItems, skipped };
  }

  async send(request: TrackerRequest): Promise<TrackerResult> {
    const resolved = await this.resolve(request);
    const response = await this.call<{ task?: { id: number } }>("POST", "/tasks", resolved.body);
    if (!response.task?.id) throw new PyrusError("Pyrus created no task", 200, null);
    return { ...resolved, response, task: taskLink(response.task.id) };
  }

  async describe(request: TrackerRequest, taskId: string): Promise<TrackerResult> {
    const resolved = await this.resolve(request);
    const response = await this.call<{ task?: { id: number } }>("GET", `/tasks/${encodeURIComponent(taskId)}`);
    return { ...resolved, response, task: taskLink(response.task?.id ?? taskId) };
  }

  async testConnection(log: (step: TestStep) => void) {
    log({ key: "config", values: { login: maskLogin(this.config.login), url: trimSlash(this.config.apiUrl), formId: this.config.formId } });
    log({ key: "request", values: { url: `${trimSlash(this.config.apiUrl)}/auth` } });
    const started = Date.now();
    try {
      const token = await this.authenticate();
      log({ key: "answered", values: { ms: Date.now() - started }, ok: true });
      log({ key: "token", values: { token: maskToken(token) }, ok: true });
      log({ key: "apiUrl", values: { url: this.apiUrl } });
      return { ok: true, maskedToken: maskToken(token) };
    } catch (error) {
      log({ key: "failed", values: { message: error instanceof Error ? error.message : String(error) }, ok: false });
      return { ok: false, maskedToken: null };
    }
  }
}

function taskLink(id: number | string): { id: string; url: string } {
  return { id: String(id), url: `https://pyrus.com/t#id${id}` };
}
