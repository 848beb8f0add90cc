import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local double of the Pyrus API (https://pyrus.com/en/help/api), enough for the back-office:
 * `POST /v4/auth` (login + security_key → access_token, api_url), `GET /v4/forms/{id}`,
 * `GET /v4/catalogs/{id}`, `POST /v4/tasks` and `GET /v4/tasks/{id}` with bearer tokens.
 * Unknown or expired tokens get 401 as Pyrus answers them; bad bodies get 400 with `error`.
 */

export interface PyrusFormField {
  id: number;
  type: string;
  name: string;
  info?: { catalog_id?: number; options?: Array<{ choice_id: number; choice_value: string }> };
}

export interface PyrusDoubleOptions {
  login?: string;
  securityKey?: string;
  formId?: number;
  fields?: PyrusFormField[];
  catalogs?: Record<number, Array<{ item_id: number; values: string[] }>>;
  port?: number;
}

export interface RecordedCall {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
  status: number;
}

export interface PyrusDouble {
  url: string;
  /** What PYRUS_API_URL should be. */
  apiUrl: string;
  login: string;
  securityKey: string;
  formId: number;
  calls: RecordedCall[];
  tasks: Map<number, unknown>;
  /** Every access token handed out, to check that none leaks into a page. */
  issued: string[];
  /** Every token issued so far stops working (the client must authenticate again). */
  expireTokens(): void;
  stop(): Promise<void>;
}

export const MATERIAL_CATALOG = 9101;
export const CUT_CATALOG = 9102;

/** A form like the production team's: plain fields, two catalogues and a choice field. */
export const DEFAULT_FIELDS: PyrusFormField[] = [
  { id: 1, type: "text", name: "Номер заказа" },
  { id: 2, type: "text", name: "ID заказа" },
  { id: 3, type: "date", name: "Дата заказа" },
  { id: 4, type: "text", name: "Клиент" },
  { id: 5, type: "email", name: "E-mail" },
  { id: 6, type: "phone", name: "Телефон" },
  { id: 7, type: "text", name: "Адрес доставки" },
  { id: 8, type: "text", name: "Комментарий к доставке" },
  { id: 9, type: "text", name: "Комментарий к заказу" },
  { id: 10, type: "money", name: "Сумма" },
  { id: 11, type: "text", name: "Валюта" },
  { id: 12, type: "multiple_choice", name: "Статус оплаты", info: { options: [{ choice_id: 1, choice_value: "Оплачен" }, { choice_id: 2, choice_value: "Ожидает оплаты" }] } },
  { id: 13, type: "catalog", name: "Материал", info: { catalog_id: MATERIAL_CATALOG } },
  { id: 14, type: "catalog", name: "Тип обрезки", info: { catalog_id: CUT_CATALOG } },
  { id: 15, type: "text", name: "Тип матрицы" },
  { id: 16, type: "number", name: "Количество пациентов" },
  { id: 17, type: "text", name: "Пациенты" },
  { id: 18, type: "text", name: "Ссылки на файлы" },
];

export const DEFAULT_CATALOGS: Record<number, Array<{ item_id: number; values: string[] }>> = {
  [MATERIAL_CATALOG]: [
    { item_id: 501, values: ["1-слойный", "Однослойный материал"] },
    { item_id: 502, values: ["3-слойный", "Трёхслойный материал"] },
  ],
  [CUT_CATALOG]: [
    { item_id: 601, values: ["Волнистая"] },
    { item_id: 602, values: ["Прямая"] },
  ],
};

export async function startPyrusDouble(options: PyrusDoubleOptions = {}): Promise<PyrusDouble> {
  const login = options.login ?? "bot@aligner.test";
  const securityKey = options.securityKey ?? "pyrus-security-key-for-tests";
  const formId = options.formId ?? 1234567;
  const fields = options.fields ?? DEFAULT_FIELDS;
  const catalogs = options.catalogs ?? DEFAULT_CATALOGS;
  const tokens = new Set<string>();
  const issued: string[] = [];
  const calls: RecordedCall[] = [];
  const tasks = new Map<number, unknown>();
  let nextTaskId = 180_000_001;
  let url = "";

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      const path = (request.url ?? "/").split("?")[0]!;
      const reply = (status: number, payload: unknown) => {
        calls.push({ method: request.method ?? "GET", path, authorization: request.headers.authorization ?? null, body, status });
        response.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
        response.end(JSON.stringify(payload));
      };

      if (request.method === "POST" && path === "/v4/auth") {
        const credentials = body as { login?: string; security_key?: string } | null;
        if (credentials?.login !== login || credentials?.security_key !== securityKey) {
          return reply(401, { error: "Invalid login or security key", error_code: "invalid_credentials" });
        }
        const token = randomBytes(96).toString("base64url");
        tokens.add(token);
        issued.push(token);
        return reply(200, { access_token: token, api_url: `${url}/v4/`, files_url: `${url}/files/` });
      }

      const token = request.headers.authorization?.replace(/^Bearer /, "") ?? "";
      if (!tokens.has(token)) return reply(401, { error: "Token is expired or invalid", error_code: "expired_token" });

      let match: RegExpExecArray | null;
      if (request.method === "GET" && (match = /^\/v4\/forms\/(\d+)$/.exec(path))) {
        if (Number(match[1]) !== formId) return reply(404, { error: "Form not found", error_code: "form_not_found" });
        return reply(200, { id: formId, name: "Производство элайнеров", fields });
      }
      if (request.method === "GET" && (match = /^\/v4\/catalogs\/(\d+)$/.exec(path))) {
        const items = catalogs[Number(match[1])];
        if (!items) return reply(404, { error: "Catalog not found", error_code: "catalog_not_found" });
        return reply(200, { catalog_id: Number(match[1]), catalog_headers: [{ name: "Наименование", type: "text" }], items });
      }
      if (request.method === "POST" && path === "/v4/tasks") {
        const task = body as { form_id?: number; fields?: Array<{ id: number; value: unknown }> } | null;
        if (task?.form_id !== formId) return reply(400, { error: "Form not found", error_code: "form_not_found" });
        const filled = [];
        for (const value of task.fields ?? []) {
          const field = fields.find((candidate) => candidate.id === value.id);
          if (!field) return reply(400, { error: `Field ${value.id} not found in the form`, error_code: "field_not_found" });
          if (field.type === "catalog") {
            const itemId = (value.value as { item_id?: number } | null)?.item_id;
            const item = catalogs[field.info!.catalog_id!]?.find((candidate) => candidate.item_id === itemId);
            if (!item) return reply(400, { error: `Catalog item ${String(itemId)} not found`, error_code: "invalid_field_value" });
            filled.push({ id: field.id, type: field.type, name: field.name, value: { item_id: item.item_id, values: item.values, headers: ["Наименование"] } });
          } else {
            filled.push({ id: field.id, type: field.type, name: field.name, value: value.value });
          }
        }
        const id = nextTaskId++;
        const created = { id, form_id: formId, create_date: new Date().toISOString(), last_modified_date: new Date().toISOString(), fields: filled, comments: [] };
        tasks.set(id, created);
        return reply(200, { task: created });
      }
      if (request.method === "GET" && (match = /^\/v4\/tasks\/(\d+)$/.exec(path))) {
        const task = tasks.get(Number(match[1]));
        if (!task) return reply(404, { error: "Task not found", error_code: "task_not_found" });
        return reply(200, { task });
      }
      return reply(404, { error: "Not found", error_code: "not_found" });
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    apiUrl: `${url}/v4`,
    login,
    securityKey,
    formId,
    calls,
    tasks,
    issued,
    expireTokens: () => tokens.clear(),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
