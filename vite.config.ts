import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The SPA lives in web/ and builds into dist/web, which the Fastify server serves.
export default defineConfig({
  root: "web",
  plugins: [react()],
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    sourcemap: true,
    target: "es2022",
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://127.0.0.1:3000" },
  },
});
