// `npm start` on a fresh clone: install dependencies when missing, build when the sources are
// newer than the build, then run the server in this same process (one PID to stop).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBuilt, ensureInstalled, root } from "./prepare.mjs";

ensureInstalled();
ensureBuilt();
await import(pathToFileURL(path.join(root, "dist", "server", "server.js")).href);
