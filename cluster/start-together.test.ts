import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { readSampleRecords } from "../server/sample-data.js";
import { startCluster, type Cluster } from "./cluster.js";
import { testPostgresUrl } from "./postgres.js";

/**
 * Three app servers started at the same moment on an empty PostgreSQL database, each told to
 * create the first administrator and to load the sample data: they take turns at these start-up
 * duties (server/db/startup-lock.ts), so the database ends with one administrator and one copy of
 * the sample data, and every server becomes ready. Before the lock, two of three exited 1 (a
 * duplicate key on submissions_pkey, or "An account with this email already exists.").
 */

const ADMIN_EMAIL = "registrar@school.edu";
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    servers: 3,
    postgresUrl: testPostgresUrl(),
    emptyDatabase: true,
    env: {
      ETS_SAMPLE_DATA: "on",
      ETS_ADMIN_EMAIL: ADMIN_EMAIL,
      ETS_ADMIN_PASSWORD: "a long enough passphrase",
      LOG_LEVEL: "info",
    },
  });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe("servers starting together on an empty database", () => {
  it("creates one administrator and one copy of the sample data, and all three become ready", async () => {
    onTestFailed(() => console.log(cluster.logTails()));
    for (const server of cluster.servers) {
      expect(server.child.running(), `app server ${server.number}`).toBe(true);
      const ready = await fetch(`${server.url}/api/health/ready`);
      expect(ready.status, `app server ${server.number}`).toBe(200);
    }
    const admins = await cluster.db
      .selectFrom("users")
      .select("email")
      .where("role", "=", "admin")
      .execute();
    expect(admins).toEqual([{ email: ADMIN_EMAIL }]);
    const records = readSampleRecords();
    const { count } = await cluster.db
      .selectFrom("submissions")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(records.length);
    // One server did each duty; the others found it done.
    const tails = cluster.servers.map((s) => s.child.tail(200)).join("\n");
    expect(tails.match(/administrator created from ETS_ADMIN_EMAIL/g)).toHaveLength(1);
    expect(tails.match(/sample data loaded/g)).toHaveLength(1);
  });
});
