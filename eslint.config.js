import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const REQUEST_FACTS =
  "Read request facts through the request context (~/modules/http/request/request-context.server: getViewer, getLocale, getRequestTranslator, getRequestContext, getClientAddress), once per request (ADR 050).";

/** `context.clientIp` and friends are request facts too (ADR 050). */
const CONTEXT_FACTS = {
  selector:
    "MemberExpression[object.name='context'][property.name=/^(clientIp|dataRequest)$/]",
  message: REQUEST_FACTS,
};

/**
 * A cookie of the request is parsed by the request context (getBrowserChoices, takeFlash, the viewer),
 * never where it is used (ADR 050). The session, the gates and the browser's orders are the readers
 * the context stands on, named in their own block below.
 */
const COOKIE_READ = {
  selector:
    "CallExpression[callee.property.name=/^(parse|getSession)$/] > CallExpression.arguments[callee.property.name='get'][arguments.0.value=/^cookie$/i]",
  message: "Parse the request's cookies through the request context (getBrowserChoices, takeFlash, getViewer; ADR 050).",
};
const COOKIE_READERS = ["app/modules/auth/session.server.ts", "app/modules/auth/gate.server.ts", "app/modules/orders/browser-orders.server.ts"];

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
  "Read the address through a schema: readQuery(request, schema) from ~/modules/http/request/list-query (ADR 067).";
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
const QUERY_READERS = ["app/modules/http/request/list-query.ts"];

// ---------------------------------------------------------------------------------------------
// Order data (ADR 051): every query on orders, orders_patients and order_status_history is a
// function of app/modules/orders/ — a Kysely call naming one of them (alias allowed), or raw SQL
// reading or writing one. The orders folder re-declares its rules without these (its block below).
const ORDER_DATA =
  "Order data goes through app/modules/orders/ (ADR 051): call (or add) a function there.";
const ORDER_TABLES = [
  {
    selector:
      "CallExpression[callee.property.name=/^(selectFrom|updateTable|insertInto|deleteFrom|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|innerJoinLateral|leftJoinLateral)$/][arguments.0.value=/^(orders|orders_patients|order_status_history)( as \\w+)?$/]",
    message: ORDER_DATA,
  },
  {
    selector:
      "TemplateElement[value.raw=/\\b(from|join|update|into)\\s+(orders|orders_patients|order_status_history)\\b/i]",
    message: ORDER_DATA,
  },
];
// ---------------------------------------------------------------------------------------------

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
    // About 300 lines at most for a module (ADR 030), blank lines and comments not counted. The STL
    // reader is the one exception: one streaming scanner whose helpers share its parser state.
    files: ["app/**/*.{ts,tsx}", "server.mts", "scripts/**/*.{ts,mts,mjs}"],
    ignores: ["**/*.test.{ts,tsx}", "app/modules/uploads/scan.ts"],
    rules: { "max-lines": ["error", { max: 300, skipBlankLines: true, skipComments: true }] },
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
      "app/modules/http/request/request-context.server.ts",
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
      "no-restricted-syntax": ["error", CONTEXT_FACTS, COOKIE_READ, ...FORM_READS, ...ORDER_TABLES],
    },
  },
  {
    files: ["app/modules/**/*.{ts,tsx}", "app/routes/**/*.ts"],
    ignores: [
      "**/*.test.{ts,tsx}",
      "app/modules/http/request/request-context.server.ts",
      ...QUERY_READERS,
    ],
    rules: {
      "no-restricted-syntax": [
        "error",
        CONTEXT_FACTS,
        COOKIE_READ,
        ...FORM_READS,
        ...QUERY_READS,
        ...ORDER_TABLES,
      ],
    },
  },
  {
    // The readers the request context stands on parse their own cookies; only the context imports them.
    // The order tables stay out of them too (browser-orders only reads its cookie).
    files: COOKIE_READERS,
    rules: { "no-restricted-syntax": ["error", CONTEXT_FACTS, ...FORM_READS, ...QUERY_READS, ...ORDER_TABLES] },
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
        COOKIE_READ,
        ROUTE_SHAPE,
        ...FORM_READS,
        ...ORDER_TABLES,
      ],
    },
  },
  {
    // ---------------------------------------------------------------------------------------------
    // The order data's own folder (ADR 051): the rules of app/modules without ORDER_TABLES. The
    // cookie readers keep their own block.
    files: ["app/modules/orders/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}", ...COOKIE_READERS],
    rules: {
      "no-restricted-syntax": [
        "error",
        CONTEXT_FACTS,
        COOKIE_READ,
        ...FORM_READS,
        ...QUERY_READS,
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
