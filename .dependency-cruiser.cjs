/* global module */
/**
 * Import rules checked by `npm run lint` (docs/decisions/029-import-rules.md): no cycles, and `db/`
 * (the ground floor: schema, migrations, migrator) imports nothing from `app/`.
 */
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
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|public/build|node_modules)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".json"] },
  },
};
