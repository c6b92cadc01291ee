/**
 * The server's Content-Security-Policy allows no 'unsafe-eval'. zod compiles fast object parsers
 * with `new Function` when it can, and finds out whether it can by trying once, as the first
 * object schema is built; under this policy the try is refused, and Chrome reports the refusal as
 * a policy violation (an Issues-panel entry that Lighthouse's best practices count) even though
 * zod catches it. zod's `jitless` setting skips the try: it then parses without generated code,
 * which is plenty for forms and a page's few answers.
 *
 * The setting lives in one object zod keeps on globalThis (so every copy of zod shares it), and
 * zod adopts an object already there. Setting it here, rather than through zod's `config()`,
 * keeps zod out of the shell: importing `config` brings about 9 kB of zod's utilities with it,
 * and zod otherwise loads only with the pages that parse. zod-jitless.test.ts proves zod reads it.
 *
 * Imported first by main.tsx, so it runs before a module builds a schema.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = Object.assign(holder.__zod_globalConfig ?? {}, { jitless: true });
