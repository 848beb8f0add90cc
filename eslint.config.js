import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const REQUEST_FACTS =
  "Read request facts through the request context (~/modules/http/request-context.server: getViewer, getLocale, getRequestTranslator, getRequestContext, getClientAddress), once per request (ADR 050).";

/** `context.clientIp` and friends are request facts too (ADR 050). */
const CONTEXT_FACTS = {
  selector:
    "MemberExpression[object.name='context'][property.name=/^(clientIp|dataRequest)$/]",
  message: REQUEST_FACTS,
};

const ROUTE_SHAPE = {
  selector:
    "Program:has(ExportDefaultDeclaration) > ExportNamedDeclaration > FunctionDeclaration[id.name=/^(loader|action)$/] > BlockStatement[body.length>1]",
  message:
    "A page route's loader and action are one call into its page module, which guards first (ADR 050; app/routes/route-shape.test.ts).",
};

const FORM_READ =
  "Read a form through its zod schema (readSubmission / parseWithZod, ADR 053), not field by field.";
const FORM_READS = [
  {
    selector:
      "CallExpression[callee.property.name=/^(get|getAll|has)$/][callee.object.name=/^(form|formData)$/]",
    message: FORM_READ,
  },
  // `navigation.formData` and `fetcher.formData` are Remix's pending submission, read by the UI (a busy
  // button says which intent is on its way), not a form parsed: they are exempt by name.
  {
    selector:
      "CallExpression[callee.property.name=/^(get|getAll|has)$/][callee.object.property.name='formData']:not([callee.object.object.name=/^(navigation|fetcher)$/])",
    message: FORM_READ,
  },
];

// A list's address is read only through the list kit's schema (ADR 067), as a form through its own.
const QUERY_READ =
  "Read the address through a schema: readListQuery(request, schema) from ~/modules/http/list-query (ADR 067).";
const QUERY_READS = [
  {
    selector:
      "CallExpression[callee.property.name=/^(get|getAll|has)$/][callee.object.property.name='searchParams']",
    message: QUERY_READ,
  },
  {
    selector:
      "MemberExpression[property.name='searchParams'][object.type='NewExpression']",
    message: QUERY_READ,
  },
  // An address's names handed on as `params` or `searchParams` and read there by hand.
  {
    selector:
      "CallExpression[callee.property.name=/^(get|getAll|has)$/][callee.object.name=/^(params|searchParams)$/]",
    message: QUERY_READ,
  },
];
// The kit itself is the one place that reads an address's names.
const QUERY_READERS = ["app/modules/http/list-query.ts"];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "public/build/**",
      "node_modules/**",
      "data/**",
      "tests/.tmp/**",
      "test-results/**",
      "playwright-report/**",
      ".cache/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
        },
      ],
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
    // orders) are read only through the request context, once per request (ADR 050); a form only
    // through its zod schema (ADR 053).
    files: ["app/**/*.{ts,tsx}", "server.mts", "scripts/**/*.{ts,mts}"],
    ignores: [
      "app/modules/http/request-context.server.ts",
      "**/*.test.{ts,tsx}",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/modules/i18n/i18n.server", "**/i18n.server"],
              importNames: ["getLanguage"],
              message: REQUEST_FACTS,
            },
            {
              group: ["~/modules/market/market.server", "**/market.server"],
              importNames: ["getMarket"],
              message: REQUEST_FACTS,
            },
            {
              group: ["~/modules/auth/gate.server", "**/gate.server"],
              importNames: ["hasGatePass"],
              message: REQUEST_FACTS,
            },
            {
              group: ["~/modules/auth/session.server", "**/session.server"],
              importNames: ["getSessionUser"],
              message: REQUEST_FACTS,
            },
            {
              group: ["**/browser-orders.server"],
              importNames: ["readBrowserOrderIds", "readCurrentOrderId"],
              message: REQUEST_FACTS,
            },
          ],
        },
      ],
      "no-restricted-syntax": ["error", CONTEXT_FACTS, ...FORM_READS],
    },
  },
  {
    files: ["app/modules/**/*.{ts,tsx}", "app/routes/**/*.ts"],
    ignores: [
      "**/*.test.{ts,tsx}",
      "app/modules/http/request-context.server.ts",
      ...QUERY_READERS,
    ],
    rules: {
      "no-restricted-syntax": [
        "error",
        CONTEXT_FACTS,
        ...FORM_READS,
        ...QUERY_READS,
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
        CONTEXT_FACTS,
        ROUTE_SHAPE,
        ...FORM_READS,
      ],
    },
  },
  {
    files: ["**/*.cjs", "scripts/**/*.mjs"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        require: "readonly",
      },
    },
  }
);
