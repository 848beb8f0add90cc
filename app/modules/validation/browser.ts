import { parse, type Submission } from "@conform-to/react";

/**
 * The browser's check of a form with the server's own schema (ADR 054): conform's `onValidate`
 * calls this, so an empty or malformed field is said at once, offline too; the server still
 * decides. It reads the form as `parseWithZod` does on the server — an empty field is no value —
 * without pulling that helper's coercion (and with it zod's full build) into the page: every
 * schema of ours reads text, so nothing else needs coercing.
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
