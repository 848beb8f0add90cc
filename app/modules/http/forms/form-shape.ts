/**
 * What a posted form may build before any parser walks it (ADR 056). conform turns a field named
 * `x[4294967294]` into an array of that many slots and walks it, and gathers a name sent 50,000
 * times with one array copy per value; both cost seconds or the heap for a few bytes sent. The
 * product's forms are flat, so the shape a form may have is read off its zod schema:
 *
 * - at most MAX_FORM_ENTRIES values in all (a name sent twice counts twice);
 * - a name with structure (`a[0]`, `a.b`) only under a field the schema has, at most
 *   MAX_FORM_DEPTH levels deep, with no index above MAX_FORM_INDEX;
 * - conform's own control fields (`__intent__`, `__state__`) never: no form of ours sends them;
 * - a plain name the schema does not have passes (a route may read it beside the schema: the
 *   wizard's `step`), but is never echoed back with a refusal (`echoedPayload`).
 *
 * Anything else is refused whole, with 400, before conform builds anything.
 */

export const MAX_FORM_ENTRIES = 1000;
export const MAX_FORM_INDEX = 99;
export const MAX_FORM_DEPTH = 3;

const CONFORM_CONTROLS = new Set(["__intent__", "__state__"]);
const STRUCTURE = /[.[\]]/;
const SEGMENT = /([^.[\]]+)|\[(\d*)\]/g;

type SchemaNode = { _zod?: { def?: Record<string, unknown> } };

/**
 * The top-level field names a schema reads, or null when it takes any name (a record, an unknown).
 * Unions give the names of every option; wrappers (optional, default, pipe, …) those of what they wrap.
 */
export function fieldNamesOf(schema: unknown, seen = new Set<unknown>()): Set<string> | null {
  const def = (schema as SchemaNode)?._zod?.def;
  if (!def || seen.has(schema)) return new Set();
  seen.add(schema);
  const inner = (key: string) => fieldNamesOf(def[key], seen);
  switch (def.type) {
    case "object":
      return new Set(Object.keys(def.shape as object));
    case "union":
      return merged((def.options as unknown[]).map((option) => fieldNamesOf(option, seen)));
    case "intersection":
      return merged([inner("left"), inner("right")]);
    case "pipe":
      return inner("in");
    case "lazy":
      return fieldNamesOf((def.getter as () => unknown)(), seen);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "catch":
    case "readonly":
    case "success":
    case "promise":
      return inner("innerType");
    default:
      return null;
  }
}

function merged(sets: Array<Set<string> | null>): Set<string> | null {
  if (sets.some((set) => set === null)) return null;
  return new Set(sets.flatMap((set) => [...set!]));
}

/** Why a form was refused, for the log; null when its shape is one the schema allows. */
export function formShapeProblem(names: Iterable<string>, known: Set<string> | null): string | null {
  let entries = 0;
  for (const name of names) {
    if (++entries > MAX_FORM_ENTRIES) return `more than ${MAX_FORM_ENTRIES} values`;
    if (CONFORM_CONTROLS.has(name)) return `a control field "${name}"`;
    if (!STRUCTURE.test(name)) continue;
    const problem = pathProblem(name, known);
    if (problem) return problem;
  }
  return null;
}

function pathProblem(name: string, known: Set<string> | null): string | null {
  const segments: Array<string | number> = [];
  let last = 0;
  for (const match of name.matchAll(SEGMENT)) {
    if (match.index !== last && !(match.index === last + 1 && name[last] === ".")) return `a malformed name "${name.slice(0, 80)}"`;
    last = match.index + match[0].length;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] === "") segments.push("");
    else {
      const index = Number(match[2]);
      if (!(index <= MAX_FORM_INDEX)) return `an index above ${MAX_FORM_INDEX} in "${name.slice(0, 80)}"`;
      segments.push(index);
    }
    if (segments.length > MAX_FORM_DEPTH + 1) return `a name deeper than ${MAX_FORM_DEPTH} levels`;
  }
  if (last !== name.length || segments.length === 0) return `a malformed name "${name.slice(0, 80)}"`;
  const root = segments[0];
  if (typeof root !== "string" || (known !== null && !known.has(root))) return `a structured name "${name.slice(0, 80)}" the form does not have`;
  return null;
}

/** The values a refusal sends back: the form's own fields only. */
export function echoedPayload<P extends Record<string, unknown>>(payload: P, known: Set<string> | null): P {
  if (known === null) return payload;
  return Object.fromEntries(Object.entries(payload).filter(([name]) => known.has(name))) as P;
}
