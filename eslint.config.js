import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const REQUEST_FACTS =
  "Read request facts through the request context (~/modules/http/request-context.server: getViewer, getLocale, getRequestTranslator, getRequestContext, getClientAddress), once per request (ADR 050).";

export default tseslint.config(
  { ignores: ["build/**", "public/build/**", "node_modules/**", "data/**", "tests/.tmp/**", "test-results/**", "playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/no-empty-object-type": "off",
    },
  },
  {
    // The server, the worker and the scripts write through the logger (app/modules/log, ADR 031).
    files: ["app/**/*.{ts,tsx}", "server.mts", "scripts/**/*.{ts,mts,mjs}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "no-console": "error" },
  },
  {
    // Request facts (viewer, gates, market, language, translator, client address, the browser's
    // orders) are read only through the request context, once per request (ADR 050).
    files: ["app/**/*.{ts,tsx}", "server.mts", "scripts/**/*.{ts,mts}"],
    ignores: ["app/modules/http/request-context.server.ts", "**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["~/modules/i18n/i18n.server", "**/i18n.server"], importNames: ["getLanguage"], message: REQUEST_FACTS },
            { group: ["~/modules/market/market.server", "**/market.server"], importNames: ["getMarket"], message: REQUEST_FACTS },
            { group: ["~/modules/auth/gate.server", "**/gate.server"], importNames: ["hasGatePass"], message: REQUEST_FACTS },
            { group: ["~/modules/auth/session.server", "**/session.server"], importNames: ["getSessionUser"], message: REQUEST_FACTS },
            { group: ["**/order-cookies.server"], importNames: ["readBrowserOrderIds", "readCurrentOrderId"], message: REQUEST_FACTS },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[object.name='context'][property.name=/^(clientIp|dataRequest)$/]", message: REQUEST_FACTS },
      ],
    },
  },
  {
    // One route shape (ADR 050): a page route's loader and action are one call into its page module.
    // app/routes/route-shape.test.ts checks the rest (the callee's module, the order of exports).
    files: ["app/routes/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[object.name='context'][property.name=/^(clientIp|dataRequest)$/]", message: REQUEST_FACTS },
        {
          selector: "Program:has(ExportDefaultDeclaration) > ExportNamedDeclaration > FunctionDeclaration[id.name=/^(loader|action)$/] > BlockStatement[body.length>1]",
          message: "A page route's loader and action are one call into its page module, which guards first (ADR 050; app/routes/route-shape.test.ts).",
        },
      ],
    },
  },
  {
    files: ["**/*.cjs", "scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", require: "readonly" } },
  },
);
