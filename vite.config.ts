import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

/**
 * Small modules that Rollup would otherwise give a chunk each, grouped so a page fetches one file
 * for them (issue 11). Every script response carries about 0.9 kB of headers (the security
 * headers, caching, the encoding), as much as a small module compressed, and the target counts
 * what crosses the wire: JavaScript transferred on the first load <= 110 kB.
 *
 * - `forms`: react-hook-form and TanStack Query's mutation hook, which a page with a
 *   react-hook-form form (the login page, the profile page) needs together. The zod
 *   resolver is not here: web/lib/lazy-resolver.ts (which is) loads it on a form's first validation;
 *   without naming it here, Rollup put it in `auth`, and the status page fetched the login page.
 * - `shared`: the zod-free constants of common/ (stages, labels, filters), the date and size
 *   formats, the loading and error states: a dozen small modules the signed-in pages share.
 * - `admin`: the administrators' paths, query keys, load error, search box and the list's address
 *   reading and request, which the list page (the administrators' landing page) needs together.
 * - `student`: the student's requests (the status page asks for five answers at once), the
 *   upload with progress, and the student's layout (every student page loads the requests too).
 * - `publication`: what the student's Publication section and the administrators' panel share.
 *
 * The progress bar (0.6 kB, the upload's and the examiner's) is in `shared`: a file of its own
 * cost more in headers than in code.
 * - `auth`: the login page with its layout and the single sign-on buttons and requests, which
 *   arrive together on /auth/login anyway.
 */
const CHUNK_GROUPS: { name: string; paths: string[] }[] = [
  {
    name: "forms",
    paths: [
      "/node_modules/react-hook-form/",
      "/node_modules/@tanstack/react-query/build/modern/useMutation.js",
      "/node_modules/@tanstack/query-core/build/modern/mutationObserver.js",
      "/web/lib/lazy-resolver.ts",
    ],
  },
  {
    // A few hundred bytes, on nearly every page with a form or an error: in the shell, rather
    // than bringing the whole `forms` group to a page that only shows an alert (the list page).
    // The labelled fields and the failed call's message too: the status page's title and
    // abstract form uses them without react-hook-form, and in `shared` they cost the login page
    // a request.
    name: "index",
    paths: ["/web/components/ui/Alert.tsx", "/web/components/form/", "/web/lib/form-errors.ts"],
  },
  {
    name: "shared",
    paths: [
      "/common/workflow.ts",
      "/common/documents-constants.ts",
      "/common/examiners-constants.ts",
      "/common/submissions-constants.ts",
      "/web/lib/format.ts",
      "/web/lib/stage-guide.ts",
      "/web/components/ui/Loading.tsx",
      "/web/components/ui/ErrorState.tsx",
      "/web/components/ui/FactList.tsx",
      "/web/components/ui/ProgressBar.tsx",
    ],
  },
  {
    // The publication requests, field errors, constants, languages and metadata fields that the
    // student's Publication section and the administrators' panel share: one file, not three.
    name: "publication",
    paths: [
      "/web/features/publication/api.ts",
      "/web/features/publication/field-errors.ts",
      "/web/features/publication/constants.ts",
      "/web/features/publication/MetadataFields.tsx",
      "/web/features/publication/publication.css",
      "/common/languages.ts",
    ],
  },
  {
    name: "admin",
    paths: [
      "/web/features/admin/paths.ts",
      "/web/features/admin/query-keys.ts",
      "/web/features/admin/components/LoadError.tsx",
      "/web/features/admin/components/DebouncedInput.tsx",
      "/web/features/admin/submissions/lib/list-params.ts",
      "/web/features/admin/submissions/api/get-submissions.ts",
    ],
  },
  {
    name: "student",
    paths: [
      "/web/features/student/api/",
      "/web/lib/upload-with-progress.ts",
      "/web/features/student/StudentLayout.tsx",
    ],
  },
  {
    name: "auth",
    paths: [
      "/web/features/auth/AuthLayout.tsx",
      "/web/features/auth/auth.css",
      "/web/features/auth/LoginPage.tsx",
      "/web/features/auth/SsoButtons.tsx",
      "/web/features/auth/api/",
      "/common/sso-constants.ts",
    ],
  },
];

type ModuleInfo = { importedIds: readonly string[]; isEntry: boolean } | null;

/**
 * Rollup moves a group's dependencies into the group unless they belong to another chunk, which
 * would drag React and the router out of the shell. So every module the entry reaches by static
 * imports is named as the entry's own chunk ("index") first: the shell stays what it was.
 */
function chunkGrouper() {
  let shell: Set<string> | null = null;
  return (
    id: string,
    {
      getModuleIds,
      getModuleInfo,
    }: {
      getModuleIds: () => IterableIterator<string>;
      getModuleInfo: (id: string) => ModuleInfo;
    },
  ): string | undefined => {
    if (!shell) {
      const reached = new Set<string>();
      const stack = [...getModuleIds()].filter((m) => getModuleInfo(m)?.isEntry);
      for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
        if (reached.has(next)) continue;
        reached.add(next);
        stack.push(...(getModuleInfo(next)?.importedIds ?? []));
      }
      shell = reached;
    }
    if (shell.has(id)) return "index";
    const path = id.replaceAll("\\", "/");
    return CHUNK_GROUPS.find((group) => group.paths.some((p) => path.includes(p)))?.name;
  };
}

// The SPA lives in web/ and builds into dist/web, which the Fastify server serves.
export default defineConfig({
  root: "web",
  plugins: [react()],
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    sourcemap: true,
    target: "es2022",
    // Every browser the es2022 target runs in preloads modules itself; the polyfill was 0.4 kB of
    // the shell for none of them.
    modulePreload: { polyfill: false },
    rollupOptions: { output: { manualChunks: chunkGrouper() } },
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://127.0.0.1:3000" },
  },
});
