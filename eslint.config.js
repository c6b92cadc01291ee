import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

/**
 * The server's folders in their order, lowest first (docs/architecture.md, "The server's order"):
 * a folder imports only folders in the rows below its own, never one in its own row or above.
 * server/'s own modules outside any folder are the base under all of them (config.ts, errors.ts,
 * ...), except SERVER_APP_MODULES, which sit on top; test files and the test helpers
 * (testing/ beside server/, and server/fuzz/) sit above everything, as the app does.
 */
export const SERVER_LAYERS = [
  ["db", "http"],
  ["auth", "files", "jobs", "mail"],
  ["webhooks"],
  ["accounts", "submissions"],
  ["messages"],
  ["examiners"],
  ["documents"],
  ["publication"],
  ["admin", "backup", "contact", "dashboard", "health", "reports"],
];
export const SERVER_APP_MODULES = [
  "app",
  "bootstrap",
  "housekeeping",
  "sample-data",
  "sample-journeys",
  "server",
];
/** Test helpers inside server/; the others live in testing/, beside server/, outside the build. */
const TEST_HELPERS = ["fuzz"];
const TEST_HELPERS_MESSAGE =
  "Production code does not import the test helpers (testing/, server/fuzz/): they are not built.";
/** testing/ from anywhere in server/: "../testing/" from a base module, more "../" deeper. */
const ROOT_TEST_HELPERS = { regex: "^(\\.\\./)+testing/", message: TEST_HELPERS_MESSAGE };

/**
 * no-restricted-imports matches the import as written, so a module is named by how a relative
 * path reaches it: "./" from server/'s own modules, one or more "../" from inside a folder.
 * Type-only imports count too: they are a dependency a reader follows all the same.
 */
const UP = "(\\.\\./)+";
const HERE = "\\./";
const folders = (from, names) => `^${from}(${names.join("|")})/`;
const appModules = (from) => `^${from}(${SERVER_APP_MODULES.join("|")})\\.js$`;

/** The patterns that keep a module under `forbidden` folders, the test helpers and the app. */
function restrict(from, forbidden, message) {
  return [
    "error",
    {
      patterns: [
        { regex: folders(from, forbidden), message },
        { regex: folders(from, TEST_HELPERS), message: TEST_HELPERS_MESSAGE },
        ROOT_TEST_HELPERS,
        {
          regex: appModules(from),
          message: "app.ts and the modules beside it (SERVER_APP_MODULES) sit above every folder.",
        },
      ],
    },
  ];
}

function serverLayerRules() {
  const rules = SERVER_LAYERS.flatMap((row, index) => {
    const notBelow = SERVER_LAYERS.slice(index).flat();
    return row.map((folder) => ({
      files: [`server/${folder}/**/*.ts`],
      ignores: ["**/*.test.ts"],
      rules: {
        "no-restricted-imports": restrict(
          UP,
          notBelow.filter((name) => name !== folder),
          `server/${folder}/ imports only the folders in the rows below its own (docs/architecture.md); move what both need down, or to common/.`,
        ),
      },
    }));
  });
  rules.push({
    files: ["server/*.ts"],
    ignores: ["**/*.test.ts", ...SERVER_APP_MODULES.map((name) => `server/${name}.ts`)],
    rules: {
      // config.ts checks STORAGE_URL and CLAMD_URL with files/' parsers; files/ imports nothing
      // of server/ but errors.ts and lazy-module.ts, so that makes no circle.
      "no-restricted-imports": restrict(
        HERE,
        SERVER_LAYERS.flat().filter((name) => name !== "files"),
        "server/'s base modules (config.ts, errors.ts, ...) sit under every folder but files/.",
      ),
    },
  });
  // The app's modules import any folder, but not the test helpers either.
  rules.push({
    files: SERVER_APP_MODULES.map((name) => `server/${name}.ts`),
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: folders(HERE, TEST_HELPERS), message: TEST_HELPERS_MESSAGE },
            ROOT_TEST_HELPERS,
          ],
        },
      ],
    },
  });
  return rules;
}

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "data/**", "test-results/**", "playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      // The import direction: the web app may use common/, never the server.
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server/**"],
              message: "web/ must not import server code; share through common/.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["common/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server/**", "**/web/**"],
              message: "common/ is shared: it imports neither server/ nor web/.",
            },
          ],
        },
      ],
    },
  },
  ...serverLayerRules(),
  {
    files: ["**/*.mjs", "**/*.cjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    // Migrations describe past schemas, so they use Kysely<any> on purpose.
    files: ["server/db/migrations/**/*.ts", "server/db/dialect.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
