import type { FastifyInstance } from "fastify";
import { countAdmins, createAdmin, findUserByEmail } from "./accounts/admins.js";
import { loadSampleData } from "./sample-data.js";

/**
 * Start-up duties after migrations: the first administrator from ETS_ADMIN_EMAIL/PASSWORD, the
 * sample data on an empty database, and a hint when there is no administrator at all.
 * There is never a fixed default account. Several servers starting together run it one at a time
 * (server/db/startup-lock.ts), so each finds what the one before it created.
 */
export async function bootstrap(
  app: FastifyInstance,
  options: { hints?: boolean } = {},
): Promise<void> {
  const { db, config } = app;
  if (config.admin) {
    const existing = await findUserByEmail(db, config.admin.email);
    if (!existing) {
      await createAdmin(db, {
        name: null,
        email: config.admin.email,
        password: config.admin.password,
      });
      app.log.info({ email: config.admin.email }, "administrator created from ETS_ADMIN_EMAIL");
    } else if (existing.role !== "admin") {
      app.log.warn(
        { email: config.admin.email },
        "ETS_ADMIN_EMAIL belongs to a student account; no administrator created",
      );
    }
  }
  if (config.sampleData) {
    const loaded = await loadSampleData(db, { storage: app.storage, config });
    if (loaded > 0) app.log.info({ submissions: loaded }, "sample data loaded");
  }
  if (options.hints !== false && (await countAdmins(db)) === 0) {
    const message =
      "No administrator exists yet. Create the first one with:\n" +
      '  npm run admin -- create --email you@school.edu --name "Your Name"\n' +
      "(it asks for a passcode), or set ETS_ADMIN_EMAIL and ETS_ADMIN_PASSWORD and restart.";
    console.log(message);
  }
}
