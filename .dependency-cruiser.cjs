/* global module */
/**
 * Import rules checked by `npm run lint` (docs/decisions/029-import-rules.md, 051-layers-and-order-data.md):
 * no cycles; `db/` (schema, migrations, migrator) imports nothing from `app/`; the ground modules
 * import no feature module; no feature module imports a page module; the order data imports none
 * of the areas that use it.
 */
const GROUND = "(db|config|log|market|validation|i18n|http|storage|mail)";
const ORDER_DATA_USERS = "(wizard|uploads|packer|tracker|backoffice|demo|partners|payments|ftp|jobs|notifications)";
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "Two modules that import each other (directly or around a loop): move the shared types into a file both import (STYLE §16).",
      from: {},
      to: { circular: true },
    },
    {
      name: "db-is-the-ground-floor",
      severity: "error",
      comment: "db/ (schema, migrations, migrator) must not import the application; demo data lives above the domain modules.",
      from: { path: "^db/" },
      to: { path: "^app/" },
    },
    {
      name: "ground-imports-no-feature",
      severity: "error",
      comment:
        "A ground module (db, config, log, market, validation, i18n, http, storage, mail) imports only other ground modules: move the shared part down, or the caller up (ADR 051). The request context is the one file that reads the facts features own (the viewer, the browser's orders); its readers are named here.",
      from: { path: `^app/modules/${GROUND}/`, pathNot: ["\\.test\\.tsx?$", "^app/modules/http/request-context\\.server\\.ts$"] },
      to: {
        path: "^app/modules/",
        pathNot: [
          `^app/modules/${GROUND}/`,
          // Texts with the staff's overrides, in the reader's language (ADR 051, still open).
          "^app/modules/translations/overrides\\.server\\.ts$",
          // The metrics' counters (ADR 073): they import nothing of the app, so any module may count.
          "^app/modules/metrics/count\\.server\\.ts$",
        ],
      },
    },
    {
      name: "request-context-reads-named-facts",
      severity: "error",
      comment: "The request context reads the viewer (auth) and the browser's orders (orders) and nothing else above the ground (ADR 051).",
      from: { path: "^app/modules/http/request-context\\.server\\.ts$" },
      to: {
        path: "^app/modules/",
        pathNot: [`^app/modules/${GROUND}/`, "^app/modules/auth/(gate\\.server|session\\.server|staff)\\.ts$", "^app/modules/orders/browser-orders\\.server\\.ts$"],
      },
    },
    {
      name: "no-feature-imports-a-page-module",
      severity: "error",
      comment: "A page module (`*-page.server.ts`) serves one route: routes and the page's components import it, no module does (ADR 051).",
      from: { path: "^app/modules/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^app/modules/[^/]+/(?!error-page)[^/]+-page\\.server\\.ts$" },
    },
    {
      name: "order-data-below-its-users",
      severity: "error",
      comment: "orders/ holds the order data every area shares; it imports none of the areas that use it (ADR 051). Page modules that live in orders/ (the cabinet) are users themselves.",
      from: { path: "^app/modules/orders/", pathNot: ["-page\\.server\\.ts$", "\\.test\\.tsx?$"] },
      to: { path: `^app/modules/${ORDER_DATA_USERS}/` },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|public/build|node_modules)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".json"] },
  },
};
