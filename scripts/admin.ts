import { parseArgs } from "node:util";
import readline from "node:readline/promises";
import { createAdmin } from "../server/accounts/admins.js";
import { ConfigError, MIN_ADMIN_PASSWORD_LENGTH, loadConfig } from "../server/config.js";
import { createDatabase, migrateToLatest } from "../server/db/database.js";
import { AppError } from "../server/errors.js";

const USAGE = `Usage: npm run admin -- create --email you@school.edu [--name "Your Name"] [--password <passcode>]
Without --password the passcode is asked for (at least ${MIN_ADMIN_PASSWORD_LENGTH} characters).`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: "string" }, name: { type: "string" }, password: { type: "string" } },
  });
  if (positionals[0] !== "create" || !values.email) {
    console.error(USAGE);
    return 2;
  }
  const password = values.password ?? (await ask("Passcode for the new administrator: "));
  const config = loadConfig();
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db);
    await createAdmin(db, { email: values.email, name: values.name ?? null, password });
    console.log(
      `Administrator ${values.email.toLowerCase()} created. Sign in at ${config.publicUrl}/auth/login`,
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

async function ask(question: string): Promise<string> {
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
  });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof AppError || error instanceof ConfigError) console.error(error.message);
    else console.error(`Could not create the administrator: ${String(error)}`);
    process.exit(1);
  });
