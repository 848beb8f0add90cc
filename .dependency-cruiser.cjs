/* global module */
/**
 * Import rules checked by `npm run lint` (docs/decisions/029-import-rules.md, 051-layers-and-order-data.md):
 * no cycles; `db/` (schema, migrations, migrator) imports nothing from `app/`; the ground modules
 * import no feature module; no feature module imports a page module; the order data imports none
 * of the areas that use it; the feature folders import each other in one direction only.
 */
const GROUND_FOLDERS = ["db", "config", "log", "market", "validation", "i18n", "http", "storage", "mail"];
const GROUND = `(${GROUND_FOLDERS.join("|")})`;
const ORDER_DATA_USERS = "(wizard|uploads|packer|tracker|backoffice|cabinet|demo|partners|payments|pricing|ftp|jobs|notifications|backup)";

/**
 * The feature folders of app/modules from the bottom up (ADR 051): a folder imports only folders
 * listed before it (and the ground), never one listed after, so no two folders import each other,
 * directly or around a loop. A folder that needs one listed after it: move what both need down (to
 * the lower folder or the ground) — or, when nothing between them imports it back, move the folder
 * in this list. Page modules (`*-page.server.ts`) stand above every folder (no module imports one,
 * rule no-feature-imports-a-page-module) and may import any; tests are not counted.
 */
const FEATURE_FOLDERS = [
  // The order data (its queries' one home).
  "orders",
  // Rules the features share.
  "money",
  "pricing",
  "translations",
  "security",
  "auth",
  // The features.
  "payments",
  "uploads",
  "wizard",
  "tracker",
  "packer",
  "partners",
  "notifications",
  // An order's thread between the clinic and the lab (ADR 104).
  "messages",
  "ftp",
  "metrics",
  "backup",
  // The areas that put them together.
  "backoffice",
  "cabinet",
  "landing",
  "layout",
  "demo",
  "jobs",
];

/** The named exceptions: a folder's imports that go up the list (their targets), each with its reason. */
const UPWARD_IMPORTS = {
  // The resumable upload refuses a file for a step the doctor skipped (ADR 057): it reads the wizard's
  // step table (steps.ts, navigation.ts: pure modules that import nothing of uploads), as the plain form does.
  uploads: ["^app/modules/wizard/(steps|navigation)\\.ts$"],
};

/** One rule per folder: nothing listed after it. */
const featureFolderRules = FEATURE_FOLDERS.slice(0, -1).map((folder, index) => ({
  name: "feature-folders-one-way",
  severity: "error",
  comment:
    "Two feature folders must not import each other (ADR 051): FEATURE_FOLDERS in .dependency-cruiser.cjs lists them from the bottom up, and a folder imports only those listed before it. Move what both need down, or move the folder in the list if nothing imports it back.",
  from: { path: `^app/modules/${folder}/`, pathNot: ["-page\\.server\\.ts$", "\\.test\\.tsx?$"] },
  to: {
    path: `^app/modules/(${FEATURE_FOLDERS.slice(index + 1).join("|")})/`,
    // The metrics' counters (ADR 073) import nothing of the app: any module may count.
    pathNot: ["^app/modules/metrics/count\\.server\\.ts$", ...(UPWARD_IMPORTS[folder] ?? [])],
  },
}));
const KNOWN_FOLDERS = `(${[...GROUND_FOLDERS, ...FEATURE_FOLDERS].join("|")})`;

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
      from: { path: `^app/modules/${GROUND}/`, pathNot: ["\\.test\\.tsx?$", "^app/modules/http/request/request-context\\.server\\.ts$"] },
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
      from: { path: "^app/modules/http/request/request-context\\.server\\.ts$" },
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
      to: { path: "^app/modules/.+-page\\.server\\.ts$", pathNot: "/error-page\\.server\\.ts$" },
    },
    {
      name: "order-data-below-its-users",
      severity: "error",
      comment: "orders/ holds the order data every area shares, and every query on orders, orders_patients and order_status_history; it imports none of the areas that use it (ADR 051). The cabinet's pages are in cabinet/.",
      from: { path: "^app/modules/orders/", pathNot: "\\.test\\.tsx?$" },
      to: { path: `^app/modules/${ORDER_DATA_USERS}/` },
    },
    ...featureFolderRules,
    {
      name: "feature-folder-listed",
      severity: "error",
      comment: "Every folder of app/modules is a ground module or a feature folder of FEATURE_FOLDERS (.dependency-cruiser.cjs): add a new one to the list where it belongs (ADR 051).",
      from: {},
      to: { path: "^app/modules/[^/]+/", pathNot: `^app/modules/${KNOWN_FOLDERS}/` },
    },
    {
      name: "feature-folder-listed",
      severity: "error",
      comment: "Every folder of app/modules is a ground module or a feature folder of FEATURE_FOLDERS (.dependency-cruiser.cjs): add a new one to the list where it belongs (ADR 051).",
      from: { path: "^app/modules/[^/]+/", pathNot: `^app/modules/${KNOWN_FOLDERS}/` },
      to: {},
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
