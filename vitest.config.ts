import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "server",
          environment: "node",
          include: [
            "common/**/*.test.ts",
            "server/**/*.test.ts",
            "scripts/**/*.test.ts",
            "testing/**/*.test.ts",
          ],
        },
      },
      {
        extends: true,
        test: {
          name: "web",
          environment: "jsdom",
          include: ["web/**/*.test.{ts,tsx}"],
          setupFiles: ["web/test/setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          // Several app servers behind nginx on PostgreSQL, killed and restarted (cluster/README.md):
          // needs `npm run build`, nginx and PostgreSQL. One file at a time, after the other
          // projects, so the servers it starts do not compete with the other tests for the CPU.
          name: "cluster",
          environment: "node",
          include: ["cluster/**/*.test.ts"],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
