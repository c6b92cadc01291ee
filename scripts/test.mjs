// `npm test`: every test, on a fresh clone of a new machine too. It first makes sure of what the
// tests need (scripts/prepare.mjs): the dependencies, a current build (the several-servers tests
// run the built server, the browser tests serve the built app), and Debian's nginx, clamd and
// Chromium, which the tests start themselves; then it runs them.
//
//   npm test                    Vitest's projects (unit, API, web, several servers), then the
//                               browser tests (Playwright)
//   npm test -- ARGS            Vitest only, with ARGS (CI: --maxWorkers=2 --reporter=...)
//   npm run test:e2e [-- ARGS]  the browser tests only, with ARGS
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ensureBuilt, ensureDebianParts, ensureInstalled, root } from "./prepare.mjs";

const args = process.argv.slice(2);
const e2eOnly = args[0] === "--e2e";
const runnerArgs = e2eOnly ? args.slice(1) : args;
const runVitest = !e2eOnly;
const runPlaywright = e2eOnly || args.length === 0;

ensureInstalled();
// ETS_CHROMIUM_PATH read here, not through server/config.ts: this runs before `npm ci` and the
// build, so it cannot load the TypeScript config module; the browser tests read it there.
ensureDebianParts([
  ...(runVitest ? ["nginx", "clamd"] : []),
  ...(runPlaywright && !process.env.ETS_CHROMIUM_PATH ? ["chromium"] : []),
]);
ensureBuilt();

function run(script, scriptArgs) {
  const result = spawnSync(process.execPath, [path.join(root, script), ...scriptArgs], {
    cwd: root,
    stdio: "inherit",
  });
  return result.status ?? 1;
}

let status = 0;
if (runVitest) status = run("node_modules/vitest/vitest.mjs", ["run", ...runnerArgs]);
if (runPlaywright) {
  const e2e = run("node_modules/@playwright/test/cli.js", ["test", ...runnerArgs]);
  if (status === 0) status = e2e;
}
process.exit(status);
