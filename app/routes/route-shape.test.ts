import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * ADR 050 (after 030): every route module reads in one order — imports, `meta`, `loader`, `action`,
 * the component, `ErrorBoundary`. A route may leave any of them out; those it has keep that order.
 * Other exports (`links`, `handle`, `headers`) and the page's own helpers may sit in between.
 *
 * A page route (one with a component) has one shape: its `loader` and `action` are each one
 * statement, a call into the page's module `app/modules/<area>/<page>-page.server.ts`, which
 * guards first and reads the request's facts from the request context.
 */
const ORDER = ["meta", "loader", "action", "component", "ErrorBoundary"] as const;
type Part = (typeof ORDER)[number];

const ROUTES_DIR = import.meta.dirname;

/** A top-level export, recognised at the start of its line (top-level code is never indented). */
function partOf(line: string): Part | null {
  if (/^export\s+default\b/.test(line)) return "component";
  const declared = /^export\s+(?:async\s+)?(?:function\*?|const|let)\s+([A-Za-z_$][\w$]*)/.exec(line)?.[1];
  const names = declared ? [declared] : (/^export\s*\{([^}]*)\}/.exec(line)?.[1] ?? "").split(",").map((name) => name.trim().split(/\s+as\s+/).pop() ?? "");
  for (const name of names) {
    if (name === "default") return "component";
    if ((ORDER as readonly string[]).includes(name)) return name as Part;
  }
  return null;
}

/** The parts a module exports, in the order its lines declare them. */
function partsInOrder(source: string): Part[] {
  return source
    .split("\n")
    .map(partOf)
    .filter((part): part is Part => part !== null);
}

/** Route modules as remix.config.js sees them: files, and folders holding a `route.*`; no dotfiles or tests. */
function routeModules(): string[] {
  return fs
    .readdirSync(ROUTES_DIR, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith(".") && !/\.test\.tsx?$/.test(entry.name))
    .flatMap((entry) => {
      if (!entry.isDirectory()) return /\.(tsx?|jsx?)$/.test(entry.name) ? [entry.name] : [];
      const route = fs.readdirSync(path.join(ROUTES_DIR, entry.name)).find((name) => /^route\.(tsx?|jsx?)$/.test(name));
      return route ? [path.join(entry.name, route)] : [];
    });
}

/**
 * The modules a page route's loader or action may call besides `<area>/<page>-page.server`: the
 * wizard's page is split into its loader and action modules (ADR 035), and the catch-all route
 * answers with the not-found page of its own module.
 */
const PAGE_MODULE = /^~\/modules\/[a-z-]+\/[a-z-]+-page\.server$/;
const OTHER_PAGE_MODULES = new Set(["~/modules/wizard/loader.server", "~/modules/wizard/action.server", "~/modules/http/answers/not-found.server"]);

/** What is wrong with a page route's `loader` and `action`, or nothing when each is one call into a page module. */
function shapeProblems(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const imported = new Map<string, string>();
  let isPage = false;
  const handlers: Array<[string, ts.ConciseBody | undefined]> = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) imported.set(element.name.text, statement.moduleSpecifier.text);
    }
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    const exported = modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (exported && modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword)) isPage = true;
    if (ts.isExportAssignment(statement) && !statement.isExportEquals) isPage = true;
    if (!exported) continue;
    if (ts.isFunctionDeclaration(statement) && (statement.name?.text === "loader" || statement.name?.text === "action")) handlers.push([statement.name.text, statement.body]);
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || (declaration.name.text !== "loader" && declaration.name.text !== "action")) continue;
        const value = declaration.initializer;
        handlers.push([declaration.name.text, value && (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) ? value.body : undefined]);
      }
    }
  }
  if (!isPage) return [];
  return handlers.flatMap(([name, body]) => {
    let expression: ts.Expression | undefined;
    if (body && ts.isBlock(body)) {
      const [only, ...rest] = body.statements;
      if (only && rest.length === 0 && (ts.isReturnStatement(only) || ts.isThrowStatement(only))) expression = only.expression;
    } else if (body) expression = body;
    while (expression && (ts.isAwaitExpression(expression) || ts.isParenthesizedExpression(expression))) expression = expression.expression;
    const callee = expression && ts.isCallExpression(expression) && ts.isIdentifier(expression.expression) ? expression.expression.text : null;
    if (!callee) return [`${name}: not one call (\`return loadXPage(args)\`)`];
    const from = imported.get(callee);
    if (!from || !(PAGE_MODULE.test(from) || OTHER_PAGE_MODULES.has(from))) return [`${name}: calls ${callee} from ${from ?? "this file"}, not a page module`];
    // One convention (ADR 050): the page module takes the route's own args, never their parts (a
    // shared page module may be told which page it serves, as the legal pages are).
    const [first, ...rest] = (expression as ts.CallExpression).arguments;
    if (!first || !ts.isIdentifier(first) || rest.some((argument) => !ts.isStringLiteral(argument))) return [`${name}: passes its parts to ${callee}, not the route's args`];
    return [];
  });
}

describe("route module shape", () => {
  it("knows the order of a module's parts", () => {
    const source = ["export function ErrorBoundary() {}", "export default function Page() {}", "export async function action() {}", "export const meta = () => [];", "export { load as loader };"].join("\n");
    expect(partsInOrder(source)).toEqual(["ErrorBoundary", "component", "action", "meta", "loader"]);
  });

  it("finds the route modules", () => {
    expect(routeModules().length).toBeGreaterThan(40);
  });

  it("knows a page route of the chosen shape from one that is not", () => {
    const page = (loader: string) => `import { loadXPage } from "~/modules/area/x-page.server";\nimport { helper } from "~/modules/area/x.server";\n${loader}\nexport default function X() {}`;
    expect(shapeProblems("x.tsx", page("export async function loader(args: LoaderFunctionArgs) {\n  return loadXPage(args);\n}"))).toEqual([]);
    expect(shapeProblems("x.tsx", page("export const loader = (args: LoaderFunctionArgs) => loadXPage(args);"))).toEqual([]);
    expect(shapeProblems("x.tsx", page("export async function loader({ request }: LoaderFunctionArgs) {\n  await requireStaff(request);\n  return loadXPage(request);\n}"))).toEqual(["loader: not one call (`return loadXPage(args)`)"]);
    expect(shapeProblems("x.tsx", page("export async function action(args: ActionFunctionArgs) {\n  return helper(args);\n}"))).toEqual(["action: calls helper from ~/modules/area/x.server, not a page module"]);
    expect(shapeProblems("x.tsx", page("export async function loader({ request, context }: LoaderFunctionArgs) {\n  return loadXPage(request, context);\n}"))).toEqual(["loader: passes its parts to loadXPage, not the route's args"]);
    // A resource route (no component) is a machine endpoint with its own guard (STYLE 10).
    expect(shapeProblems("x.ts", "export async function loader() {\n  const a = 1;\n  return a;\n}")).toEqual([]);
  });

  it.each(routeModules())("%s: a page route's loader and action are one call into its page module", (file) => {
    expect(shapeProblems(file, fs.readFileSync(path.join(ROUTES_DIR, file), "utf8"))).toEqual([]);
  });

  it.each(routeModules())("%s: meta, loader, action, component, ErrorBoundary", (file) => {
    const parts = partsInOrder(fs.readFileSync(path.join(ROUTES_DIR, file), "utf8"));
    const expected = [...parts].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
    expect(parts).toEqual(expected);
    expect(new Set(parts).size).toBe(parts.length);
  });
});
