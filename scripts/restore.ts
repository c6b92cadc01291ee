import { parseArgs } from "node:util";
import { BackupError } from "../server/backup/backup-error.js";
import { formatRestoreReport } from "../server/backup/report.js";
import { parseRestoreTarget, restoreDatabase } from "../server/backup/restore.js";
import { ConfigError, loadConfig } from "../server/config.js";

const USAGE = `Usage: npm run restore -- FILE [--into DATABASE_URL] [--force]
Restores a backup made by npm run backup into a new database (--into, else DATABASE_URL):
a SQLite file that does not exist yet, or a PostgreSQL database that is empty or does not exist
(it is created). Then migrates it to this version. --force replaces an existing database; stop
the servers first.`;

async function main(): Promise<number> {
  let values: { into?: string; force?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      allowPositionals: true,
      options: {
        into: { type: "string" },
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
  if (positionals.length !== 1) {
    console.error(`Give exactly one backup file to restore.\n${USAGE}`);
    return 2;
  }
  const [file] = positionals as [string];
  const config = loadConfig();
  const target = values.into === undefined ? config.database : parseRestoreTarget(values.into);
  const report = await restoreDatabase(file, target, { force: values.force });
  console.log(formatRestoreReport(report, config.storageUrl));
  return 0;
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof BackupError || error instanceof ConfigError) console.error(error.message);
    else console.error(`The restore failed: ${String(error)}`);
    process.exit(1);
  });
