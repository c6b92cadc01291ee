import { ConfigError, loadConfig } from "../server/config.js";
import { createDatabase, migrateToLatest } from "../server/db/database.js";

// `npm run db:migrate`: applies pending migrations to DATABASE_URL's database and exits.
try {
  const config = loadConfig();
  const db = createDatabase(config.database);
  try {
    const applied = await migrateToLatest(db);
    console.log(
      applied.length > 0 ? `Applied: ${applied.join(", ")}` : "The database is up to date.",
    );
  } finally {
    await db.destroy();
  }
} catch (error) {
  console.error(
    error instanceof ConfigError ? error.message : `Migration failed: ${String(error)}`,
  );
  process.exit(1);
}
