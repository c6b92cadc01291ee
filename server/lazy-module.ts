import { createRequire } from "node:module";

const load = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on its first use instead of when the server starts. The packages a
 * deployment may never use (spreadsheets, the S3 client, SAML, PostgreSQL on an SQLite install,
 * SMTP without SMTP_URL) took about half of the app's start, some 0.6 s of 1.1 s, paid again by
 * every test file that builds the app. `onLoad` runs once, when the package is first loaded
 * (a setting it must have before any use). Types come from `import type` of the same package.
 */
export function lazyModule<T>(id: string, onLoad?: (loaded: T) => void): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      const value = load(id) as T;
      onLoad?.(value);
      loaded = value;
    }
    return loaded;
  };
}
