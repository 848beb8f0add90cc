import { parse, type Submission } from "@conform-to/react";
import { useCallback, useRef } from "react";
import { useIdleImport } from "./idle-import";

/**
 * The browser's check of a form with the server's own schema (ADR 053): conform's `onValidate`
 * calls this, so an empty or malformed field is said at once, offline too; the server still
 * decides. It reads the form as `parseWithZod` does on the server — an empty field is no value —
 * without pulling that helper's coercion (and with it zod's full build) into the page: every
 * schema of ours reads text, so nothing else needs coercing.
 *
 * The schemas (and zod's small build with them) are not part of what a page loads before it can be
 * used: `useBrowserCheck` fetches them with `useIdleImport` (idle after hydration, or the first focus
 * in the form). A form sent before they arrive goes to the server unchecked — the server decides anyway.
 */
interface Issue {
  path: PropertyKey[];
  message: string;
}
interface BrowserSchema<Output> {
  safeParse(value: unknown): { success: true; data: Output } | { success: false; error: { issues: Issue[] } };
}

function withoutEmpty(value: unknown): unknown {
  if (value === "") return undefined;
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutEmpty(item)]));
  return value;
}

const fieldName = (path: PropertyKey[]) => path.reduce<string>((name, part) => (typeof part === "number" ? `${name}[${part}]` : name ? `${name}.${String(part)}` : String(part)), "");

export function checkInBrowser<Output>(formData: FormData, schema: BrowserSchema<Output>): Submission<Output, string[]> {
  return parse(formData, {
    resolve(payload) {
      const result = schema.safeParse(withoutEmpty(payload));
      if (result.success) return { value: result.data };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) (error[fieldName(issue.path)] ??= []).push(issue.message);
      return { error };
    },
  });
}

const unchecked = (formData: FormData) => parse(formData, { resolve: (value) => ({ value }) });

/**
 * conform's `onValidate` for a form whose schema module `load` imports; `warm` starts the import
 * early (give it to the form's `onFocus`).
 */
export function useBrowserCheck<M>(load: () => Promise<M>, pick: (module: M) => BrowserSchema<unknown>) {
  const { loaded, warm } = useIdleImport(load);
  const picked = useRef(pick);
  picked.current = pick;
  const onValidate = useCallback(({ formData }: { formData: FormData }): Submission<Record<string, unknown>, string[]> => (loaded.current ? checkInBrowser(formData, picked.current(loaded.current)) : unchecked(formData)) as Submission<Record<string, unknown>, string[]>, [loaded]);
  return { onValidate, warm };
}
