import { parseArgs } from "node:util";
import { BackupError } from "../server/backup/backup-error.js";
import { backupDatabase } from "../server/backup/backup.js";
import { formatBackupReport } from "../server/backup/report.js";
import { ConfigError, loadConfig } from "../server/config.js";

const USAGE = `Usage: npm run backup -- --out FILE [--force]
Backs up DATABASE_URL's database to FILE while the servers run (SQLite: a checked copy;
PostgreSQL: a pg_dump archive in custom format). --force replaces an existing FILE.
Uploaded documents stay in the file store (STORAGE_URL): back that up as well.`;

async function main(): Promise<number> {
  let values: { out?: string; force?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        out: { type: "string" },
        force: { type: "boolean" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.out) {
    console.error(`--out FILE is missing: where to write the backup.\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  const report = await backupDatabase(config.database, values.out, { force: values.force });
  console.log(formatBackupReport(report, config.storageUrl));
  return 0;
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof BackupError || error instanceof ConfigError) console.error(error.message);
    else console.error(`The backup failed: ${String(error)}`);
    process.exit(1);
  });
