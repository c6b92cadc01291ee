import { buildApp } from "./app.js";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { createDatabase, migrateToLatest } from "./db/database.js";
import { bootstrap } from "./bootstrap.js";

/**
 * The process entry point: validate configuration before touching anything, open and migrate the
 * database, bootstrap, listen, and close gracefully on SIGTERM/SIGINT.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ETS Tracking cannot start. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const db = createDatabase(config.database);
  await migrateToLatest(db);
  const app = await buildApp(config, { db });
  app.addHook("onClose", async () => db.destroy());
  await bootstrap(app);

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    await app.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on("SIGTERM", () => void close("SIGTERM"));
  process.on("SIGINT", () => void close("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  const where = config.database.kind === "sqlite" ? config.database.path : "PostgreSQL";
  console.log(`ETS Tracking is running at ${config.publicUrl} (database: ${where})`);
  if (!config.smtpUrl) {
    // The mail worker (registered in app.ts, started when the app is ready) logs instead of sending.
    console.log("No SMTP_URL is set: mail, sign-up codes included, is written to the log.");
  }
}

main().catch((error: unknown) => {
  console.error(
    `ETS Tracking failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
