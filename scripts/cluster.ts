import fs from "node:fs";
import { parseArgs } from "node:util";
import { createAdmin, findUserByEmail } from "../server/accounts/admins.js";
import { ConfigError, loadConfig, readTestEnv } from "../server/config.js";
import { loadSampleData, sampleContextForFolder } from "../server/sample-data.js";
import { resolveFromRoot } from "../server/paths.js";
import { NotBuiltError, startCluster, type Cluster } from "../cluster/cluster.js";
import { DEFAULT_POSTGRES_URL, isPostgresUrl } from "../cluster/postgres.js";

const USAGE = `Usage: npm run cluster -- [--servers 3] [--port 8080] [--postgres URL] [--keep] [--no-sample-data]

Starts N app servers (the built server) on one new PostgreSQL database behind nginx, on loopback,
and stops them all on Ctrl-C. Run \`npm run build\` first.

  --servers N       how many app servers (default 3)
  --port P          nginx's port (default: a free one)
  --postgres URL    the PostgreSQL server to create the database on; otherwise DATABASE_URL or
                    TEST_DATABASE_URL when it is a postgres:// address, else ${DEFAULT_POSTGRES_URL}
  --keep            leave the database in place when stopping (its name is printed)
  --no-sample-data  start on an empty database instead of the sample list

SMTP_URL, CLAMD_URL and ETS_ADMIN_EMAIL/ETS_ADMIN_PASSWORD are passed on as the server reads them.`;

interface Options {
  servers: number;
  port: number | undefined;
  postgresUrl: string;
  keep: boolean;
  sampleData: boolean;
}

function readOptions(argv: string[]): Options | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        servers: { type: "string" },
        port: { type: "string" },
        postgres: { type: "string" },
        keep: { type: "boolean" },
        "no-sample-data": { type: "boolean" },
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const { values } = parsed;
  if (values.help) return "";
  const servers = values.servers === undefined ? 3 : Number(values.servers);
  if (!Number.isInteger(servers) || servers < 1 || servers > 16) {
    return `--servers must be a whole number from 1 to 16 (got ${values.servers})`;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) {
    return `--port must be a whole number from 1 to 65535 (got ${values.port})`;
  }
  const postgresUrl = values.postgres ?? defaultPostgresUrl();
  if (!isPostgresUrl(postgresUrl)) {
    return `--postgres must be a postgres:// address (got ${postgresUrl.split(":")[0]}:...)`;
  }
  return {
    servers,
    port,
    postgresUrl,
    keep: values.keep === true,
    sampleData: values["no-sample-data"] !== true,
  };
}

/** DATABASE_URL's server when it is PostgreSQL, then TEST_DATABASE_URL's, then the local one. */
function defaultPostgresUrl(): string {
  const database = loadConfig().database;
  if (database.kind === "postgres") return database.url;
  const test = readTestEnv().databaseUrl;
  return test && isPostgresUrl(test) ? test : DEFAULT_POSTGRES_URL;
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  if (typeof options === "string") {
    if (options) console.error(options);
    console.error(USAGE);
    return options ? 2 : 0;
  }
  const config = loadConfig();
  const passOn: Record<string, string> = {
    ...(config.clamdUrl ? { CLAMD_URL: config.clamdUrl } : {}),
    MAIL_FROM: config.mailFrom,
    ...(config.contactEmail ? { ETS_CONTACT_EMAIL: config.contactEmail } : {}),
    ...(config.studentEmailDomains.length > 0
      ? { ETS_STUDENT_EMAIL_DOMAINS: config.studentEmailDomains.join(",") }
      : {}),
    LOG_LEVEL: config.logLevel === "info" ? "warn" : config.logLevel,
  };

  console.log(`Starting ${options.servers} app servers and nginx…`);
  let cluster: Cluster;
  try {
    cluster = await startCluster({
      servers: options.servers,
      postgresUrl: options.postgresUrl,
      ...(options.port ? { port: options.port } : {}),
      keepDatabase: options.keep,
      smtpUrl: config.smtpUrl,
      env: passOn,
      prepare: async (db, filesDir) => {
        if (options.sampleData) await loadSampleData(db, sampleContextForFolder(filesDir));
        if (config.admin && !(await findUserByEmail(db, config.admin.email))) {
          await createAdmin(db, { name: null, ...config.admin });
        }
      },
      onLine: (source, line) => console.log(`[${source}] ${line}`),
    });
  } catch (error) {
    if (error instanceof NotBuiltError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }

  console.log(`
ETS Tracking is running at ${cluster.url} (nginx, PID ${cluster.nginx.pid})
${cluster.servers.map((s) => `  app server ${s.number}: ${s.url}  PID ${s.child.pid}`).join("\n")}
  database: ${cluster.database.name}${options.keep ? " (kept when stopping)" : " (dropped when stopping)"}
  files and logs: ${cluster.dir}`);
  if (!fs.existsSync(resolveFromRoot("dist", "web", "index.html"))) {
    console.log("The web app is not built: the API answers, pages do not (npm run build).");
  }
  if (!config.admin) {
    console.log(`No administrator was given. Create one with:
  DATABASE_URL=${cluster.database.url} npm run admin -- create --email you@school.edu`);
  }
  console.log("Press Ctrl-C to stop.");

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.log(`\n${signal}: stopping nginx and the app servers…`);
      void cluster.stop().then(resolve);
    };
    process.on("SIGINT", () => stop("SIGINT"));
    process.on("SIGTERM", () => stop("SIGTERM"));
    // A server that dies on its own is said, not hidden; the others keep serving.
    for (const server of cluster.servers) {
      void server.child.exited.then(({ code, signal }) => {
        if (!stopping) {
          console.log(`app server ${server.number} exited (${signal ?? `code ${code}`})`);
        }
      });
    }
  });
  console.log(
    options.keep
      ? `Stopped. The database ${cluster.database.name} is kept.`
      : "Stopped; the database is dropped.",
  );
  return 0;
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof ConfigError) console.error(error.message);
    else
      console.error(
        `The cluster could not start: ${error instanceof Error ? error.message : String(error)}`,
      );
    process.exit(1);
  });
