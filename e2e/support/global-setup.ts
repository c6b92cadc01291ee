import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startClamd } from "../../testing/clamd.js";
import { startSmtpPeer } from "../../testing/smtp-peer.js";
import { SHIBBOLETH_ATTRIBUTES, startSamlIdp } from "../../testing/saml-idp.js";
import { startSwordServer } from "../../testing/sword-server.js";
import { resolveFromRoot } from "../../server/paths.js";
import { writeState } from "./state.js";

export const E2E_PORT = 3900;

/**
 * Starts the real server (built, on a fresh SQLite file with the sample data) as one process, a
 * real SMTP peer that writes every received mail into a folder the tests read, and a real clamd
 * that scans every upload. Uploaded files go to the run's temporary folder, never to the
 * repository's ./data. Returns the teardown, which stops all three; the server is stopped by its
 * PID.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const entry = resolveFromRoot("dist", "server", "server.js");
  if (!fs.existsSync(entry) || !fs.existsSync(resolveFromRoot("dist", "web", "index.html"))) {
    throw new Error("The app is not built: run `npm run build` before the browser tests.");
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "ets-e2e-"));
  const mailDir = path.join(work, "mail");
  fs.mkdirSync(mailDir);
  let counter = 0;
  const smtp = await startSmtpPeer({
    onMail: (mail) => {
      counter += 1;
      const name = `${String(counter).padStart(5, "0")}.json`;
      // Written beside the folder, then renamed into it: a test reading the folder in another
      // process never sees a mail half written (it did on a slow machine: "Unexpected end of JSON
      // input"). A rename within one file system is atomic.
      const partial = path.join(work, `${name}.partial`);
      fs.writeFileSync(
        partial,
        JSON.stringify({
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          receivedAt: mail.receivedAt,
        }),
      );
      fs.renameSync(partial, path.join(mailDir, name));
    },
  });

  // Whatever started is stopped again if a later step fails: Playwright runs no teardown then.
  let clamd: Awaited<ReturnType<typeof startClamd>> | null = null;
  let server: ChildProcess | null = null;
  let samlIdp: Awaited<ReturnType<typeof startSamlIdp>> | null = null;
  let sword: Awaited<ReturnType<typeof startSwordServer>> | null = null;
  const stopAll = async () => {
    if (server) await stopServer(server);
    await samlIdp?.stop();
    await sword?.close();
    await smtp.stop();
    await clamd?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  };

  try {
    clamd = await startClamd();
    const admin = { email: "registrar@sgs.test", password: "e2e-admin-passcode" };
    const contactEmail = "sgs-office@sgs.test";
    const baseUrl = `http://127.0.0.1:${E2E_PORT}`;
    // The test SAML IdP reads our SP metadata from the server at its first sign-in.
    samlIdp = await startSamlIdp({ spMetadataUrl: `${baseUrl}/api/auth/saml/metadata` });
    // The institutional repository the publication journey deposits into (SWORD v2).
    sword = await startSwordServer();
    const databasePath = path.join(work, "ets.sqlite");
    server = spawn(process.execPath, [entry], {
      cwd: resolveFromRoot(),
      env: {
        NODE_ENV: "test",
        // One server process: the browser tests drive the pages, and stop the server by its PID.
        // Several worker processes starting together are tested in server/server.test.ts and
        // cluster/start-together.test.ts; a fresh clone's first browser-test run once saw the
        // second worker fail its start with "database is locked" (issue 23's closing note).
        ETS_WORKERS: "1",
        PORT: String(E2E_PORT),
        HOST: "127.0.0.1",
        PUBLIC_URL: baseUrl,
        DATABASE_URL: `sqlite:${databasePath}`,
        STORAGE_URL: `file:${path.join(work, "files")}`,
        CLAMD_URL: clamd.url,
        REPOSITORY_SWORD_URL: sword.serviceDocumentUrl,
        ETS_DEPOSIT_INTERVAL_SECONDS: "1",
        SMTP_URL: smtp.url,
        MAIL_FROM: "ETS Tracking <no-reply@sgs.test>",
        ETS_CONTACT_EMAIL: contactEmail,
        ETS_ADMIN_EMAIL: admin.email,
        ETS_ADMIN_PASSWORD: admin.password,
        ETS_SAMPLE_DATA: "on",
        LOG_LEVEL: "warn",
        SAML_IDP_METADATA: samlIdp.metadataUrl,
        SAML_LABEL: "Test University (SAML)",
        SAML_EMAIL_ATTRIBUTE: SHIBBOLETH_ATTRIBUTES.email,
        SAML_GROUPS_ATTRIBUTE: SHIBBOLETH_ATTRIBUTES.groups,
        SAML_INDEX_NUMBER_ATTRIBUTE: SHIBBOLETH_ATTRIBUTES.indexNumber,
        SSO_ADMIN_GROUPS: "sgs-staff",
        RATE_LIMIT_SSO: "100000",
        ...E2E_SERVER_ENV,
      },
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (!server.pid) throw new Error("Could not start the server for the browser tests");

    await waitForHealth(`${baseUrl}/api/health`, server);
    writeState({
      baseUrl,
      mailDir,
      serverPid: server.pid,
      smtpPort: smtp.port,
      admin,
      contactEmail,
      databasePath,
    });
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}

function stopServer(server: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    const pid = server.pid;
    if (server.exitCode !== null || server.signalCode !== null || pid === undefined)
      return resolve();
    server.once("exit", () => resolve());
    process.kill(pid, "SIGTERM");
    setTimeout(() => {
      if (server.exitCode === null && server.signalCode === null) process.kill(pid, "SIGKILL");
    }, 5000).unref();
  });
}

/**
 * The browser suite signs in many times from one address within minutes; these settings raise the
 * per-address limits for it (the limits themselves are proven by the API tests).
 */
// Each test signs up or signs in afresh (about a hundred sign-ins, dozens of sign-ups, codes and
// contact messages in a few minutes), all from 127.0.0.1, so the strict per-address defaults of
// server/config.ts (10 sign-ins a minute, 5 sign-ups per 15 minutes...) would refuse most of the
// suite. Per-account failures before back-off stay low enough to matter but above the few wrong
// passwords the suite types on purpose. Uploads are counted per account, and the documents journey
// sends several files from one account in a minute or two, refusals included; the limit itself is
// proven by the API tests.
const E2E_SERVER_ENV: Record<string, string> = {
  RATE_LIMIT_SIGN_IN: "100000",
  RATE_LIMIT_SIGN_UP: "100000",
  RATE_LIMIT_CODE_REQUEST: "100000",
  RATE_LIMIT_ACCOUNT_CODES: "1000",
  RATE_LIMIT_CONTACT: "100000",
  RATE_LIMIT_ACCOUNT_FAILURES: "100",
  RATE_LIMIT_UPLOADS: "100000",
  // The webhooks spec's receiver listens on 127.0.0.1, refused unless named here.
  WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
};

async function waitForHealth(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null)
      throw new Error(`The server exited with code ${server.exitCode} before it was ready`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The server did not answer ${url} within 30 s`);
}
