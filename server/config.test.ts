import { describe, expect, it } from "vitest";
import os from "node:os";
import path from "node:path";
import { ConfigError, loadConfig } from "./config.js";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("configuration", () => {
  it("defaults to SQLite under ./data, port 3000 on 127.0.0.1, sample data on", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.database).toEqual({ kind: "sqlite", path: path.resolve("data/ets.sqlite") });
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.sampleData).toBe(true);
    expect(config.smtpUrl).toBeNull();
    expect(config.admin).toBeNull();
  });

  it("selects PostgreSQL for postgres:// and postgresql:// URLs", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://u@h:5432/d" }).database.kind).toBe("postgres");
    expect(loadConfig({ DATABASE_URL: "postgresql://u@h/d" }).database.kind).toBe("postgres");
  });

  it("names PORT when it is not a number", () => {
    const problems = problemsOf({ PORT: "abc" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^PORT /);
  });

  it("names DATABASE_URL when the scheme is unsupported", () => {
    expect(problemsOf({ DATABASE_URL: "mysql://x" })[0]).toMatch(/^DATABASE_URL /);
  });

  it("reports every bad variable at once", () => {
    const problems = problemsOf({ PORT: "70000", SMTP_URL: "http://x", ETS_SAMPLE_DATA: "maybe" });
    expect(problems.map((p) => p.split(" ")[0]).sort()).toEqual([
      "ETS_SAMPLE_DATA",
      "PORT",
      "SMTP_URL",
    ]);
  });

  it("turns sample data off by default in production", () => {
    const production = { NODE_ENV: "production", SMTP_URL: "smtp://mail.school.test:587" };
    expect(loadConfig(production).sampleData).toBe(false);
    expect(loadConfig({ ...production, ETS_SAMPLE_DATA: "on" }).sampleData).toBe(true);
  });

  it("refuses to start in production without SMTP_URL, naming it, unless ETS_MAIL_TO_LOG=on", () => {
    const problems = problemsOf({ NODE_ENV: "production" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^SMTP_URL must be set when NODE_ENV=production/);
    expect(problems[0]).toContain("ETS_MAIL_TO_LOG=on");
    expect(problemsOf({ NODE_ENV: "production", ETS_MAIL_TO_LOG: "off" })).toHaveLength(1);
    expect(problemsOf({ NODE_ENV: "production", ETS_MAIL_TO_LOG: "yes" })[0]).toMatch(
      /^ETS_MAIL_TO_LOG /,
    );
    const toLog = loadConfig({ NODE_ENV: "production", ETS_MAIL_TO_LOG: "on" });
    expect(toLog.smtpUrl).toBeNull();
    // The log gets the mail's recipient and subject, never its code or link.
    expect(toLog.mailSecretsToLog).toBe(false);
    const smtp = loadConfig({ NODE_ENV: "production", SMTP_URL: "smtp://mail.school.test" });
    expect(smtp.mailSecretsToLog).toBe(false);
    // Trying the product out: mail, codes included, goes to the log as before.
    expect(loadConfig({}).mailSecretsToLog).toBe(true);
    expect(loadConfig({ NODE_ENV: "test" }).smtpUrl).toBeNull();
  });

  it("requires the bootstrap administrator's email and password together, and a long password", () => {
    expect(problemsOf({ ETS_ADMIN_EMAIL: "a@b.edu" })[0]).toMatch(
      /ETS_ADMIN_EMAIL and ETS_ADMIN_PASSWORD/,
    );
    expect(problemsOf({ ETS_ADMIN_EMAIL: "a@b.edu", ETS_ADMIN_PASSWORD: "short" })[0]).toMatch(
      /ETS_ADMIN_PASSWORD/,
    );
    const config = loadConfig({
      ETS_ADMIN_EMAIL: "Boss@B.edu",
      ETS_ADMIN_PASSWORD: "a-long-passcode",
    });
    expect(config.admin).toEqual({ email: "boss@b.edu", password: "a-long-passcode" });
  });

  it("marks https public URLs secure and parses student email domains", () => {
    const config = loadConfig({
      PUBLIC_URL: "https://ets.school.edu/",
      ETS_STUDENT_EMAIL_DOMAINS: "st.school.edu, @school.edu",
    });
    expect(config.secure).toBe(true);
    expect(config.publicUrl).toBe("https://ets.school.edu");
    expect(config.studentEmailDomains).toEqual(["st.school.edu", "school.edu"]);
  });

  it("limits each API token to 600 requests a minute unless RATE_LIMIT_API_TOKEN says otherwise", () => {
    expect(loadConfig({}).rateLimits.apiTokens).toEqual({ max: 600, windowMs: 60_000 });
    expect(loadConfig({ RATE_LIMIT_API_TOKEN: "5" }).rateLimits.apiTokens.max).toBe(5);
    expect(problemsOf({ RATE_LIMIT_API_TOKEN: "0" })[0]).toMatch(/^RATE_LIMIT_API_TOKEN /);
  });

  it("has strict request limits by default and lets each be raised", () => {
    const defaults = loadConfig({}).rateLimits;
    expect(defaults.signIn).toEqual({ max: 10, windowMs: 60_000 });
    expect(defaults.signUp).toEqual({ max: 5, windowMs: 15 * 60_000 });
    expect(defaults.codeRequest).toEqual({ max: 5, windowMs: 15 * 60_000 });
    expect(defaults.accountCodes).toEqual({ max: 3, windowMs: 15 * 60_000 });
    expect(defaults.contact).toEqual({ max: 5, windowMs: 60 * 60_000 });
    expect(defaults.accountFailuresBeforeBackoff).toBe(5);
    const raised = loadConfig({
      RATE_LIMIT_SIGN_IN: "1000",
      RATE_LIMIT_SIGN_UP: "200",
      RATE_LIMIT_CODE_REQUEST: "300",
      RATE_LIMIT_ACCOUNT_CODES: "50",
      RATE_LIMIT_CONTACT: "40",
      RATE_LIMIT_ACCOUNT_FAILURES: "20",
    }).rateLimits;
    expect(raised.signIn.max).toBe(1000);
    expect(raised.signUp.max).toBe(200);
    expect(raised.codeRequest.max).toBe(300);
    expect(raised.accountCodes.max).toBe(50);
    expect(raised.contact.max).toBe(40);
    expect(raised.accountFailuresBeforeBackoff).toBe(20);
  });

  it("names a request limit that is not a positive whole number", () => {
    expect(problemsOf({ RATE_LIMIT_SIGN_IN: "0" })[0]).toMatch(/^RATE_LIMIT_SIGN_IN /);
    expect(problemsOf({ RATE_LIMIT_CONTACT: "lots" })[0]).toMatch(/^RATE_LIMIT_CONTACT /);
  });

  it("stores documents under ./data/files, unscanned, with 100 MB and 10 MB limits by default", () => {
    const config = loadConfig({});
    expect(config.storageUrl).toBe("file:./data/files");
    expect(config.clamdUrl).toBeNull();
    expect(config.maxThesisBytes).toBe(100 * 1024 * 1024);
    expect(config.maxFormBytes).toBe(10 * 1024 * 1024);
    expect(config.rateLimits.uploads).toEqual({ max: 30, windowMs: 60 * 60_000 });
  });

  it("accepts an S3 store and a clamd address the app can use", () => {
    const config = loadConfig({
      STORAGE_URL: "s3://KEY:SECRET@ets-files?endpoint=http://127.0.0.1:9000&region=eu-west-1",
      CLAMD_URL: "tcp://clamd.internal:3310",
      ETS_MAX_THESIS_MB: "250",
      ETS_MAX_FORM_MB: "5",
      RATE_LIMIT_UPLOADS: "2",
    });
    expect(config.storageUrl).toMatch(/^s3:\/\/KEY:SECRET@ets-files/);
    expect(config.clamdUrl).toBe("tcp://clamd.internal:3310");
    expect(config.maxThesisBytes).toBe(250 * 1024 * 1024);
    expect(config.maxFormBytes).toBe(5 * 1024 * 1024);
    expect(config.rateLimits.uploads.max).toBe(2);
  });

  it("stops the start naming STORAGE_URL when the store's address cannot be used", () => {
    for (const bad of [
      "ftp://files",
      "file:",
      "s3://Bad_Bucket?region=eu-west-1",
      "s3://ets-files",
      "s3://ets-files?endpoint=ftp://host",
      "s3://ets-files?region=eu-west-1&colour=blue",
    ]) {
      const problems = problemsOf({ STORAGE_URL: bad });
      expect(problems, bad).toHaveLength(1);
      expect(problems[0], bad).toMatch(/^STORAGE_URL \S/);
    }
    expect(problemsOf({ STORAGE_URL: "s3://ets-files" })[0]).toMatch(/region/);
  });

  it("stops the start naming CLAMD_URL when clamd's address cannot be used", () => {
    for (const bad of ["http://clamd:3310", "tcp://:3310", "tcp://clamd:0", "tcp://clamd:3310/x"]) {
      const problems = problemsOf({ CLAMD_URL: bad });
      expect(problems, bad).toHaveLength(1);
      expect(problems[0], bad).toMatch(/^CLAMD_URL must look like tcp:\/\/host:3310/);
    }
  });

  it("names an upload limit outside 1 to 2000 megabytes", () => {
    expect(problemsOf({ ETS_MAX_THESIS_MB: "0" })[0]).toMatch(/^ETS_MAX_THESIS_MB /);
    expect(problemsOf({ ETS_MAX_FORM_MB: "2001" })[0]).toMatch(/^ETS_MAX_FORM_MB /);
    expect(problemsOf({ RATE_LIMIT_UPLOADS: "none" })[0]).toMatch(/^RATE_LIMIT_UPLOADS /);
  });
  it("refuses SAML_IDP_METADATA over plain http to another machine, with one clear line", () => {
    const problems = problemsOf({ SAML_IDP_METADATA: "http://idp.school.example/metadata" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^SAML_IDP_METADATA must be a file or an https:\/\/ URL: /);
    expect(problems[0]).toMatch(/signing certificate/);
    expect(problemsOf({ SAML_IDP_METADATA: "HTTP://10.0.0.5/idp.xml" })).toHaveLength(1);
    // https, a file, and a provider on this machine (development, the tests) are accepted.
    for (const good of [
      "https://idp.school.example/metadata",
      "/etc/ets/idp-metadata.xml",
      "http://127.0.0.1:8080/metadata",
      "http://localhost:8080/metadata",
    ]) {
      expect(problemsOf({ SAML_IDP_METADATA: good }), good).toEqual([]);
    }
  });

  it("reads the OpenID Connect token endpoint's authentication method and key, and names what is missing", () => {
    const oidc = { OIDC_ISSUER: "https://login.school.example", OIDC_CLIENT_ID: "ets" };
    expect(loadConfig(oidc).sso.oidc).toMatchObject({
      tokenAuthMethod: null,
      privateKeyFile: null,
      privateKeyId: null,
    });
    expect(
      loadConfig({
        ...oidc,
        OIDC_TOKEN_AUTH_METHOD: "private_key_jwt",
        OIDC_PRIVATE_KEY_FILE: "/etc/ets/oidc-key.pem",
        OIDC_PRIVATE_KEY_ID: "ets-2026",
      }).sso.oidc,
    ).toMatchObject({
      tokenAuthMethod: "private_key_jwt",
      privateKeyFile: "/etc/ets/oidc-key.pem",
      privateKeyId: "ets-2026",
    });
    expect(problemsOf({ ...oidc, OIDC_TOKEN_AUTH_METHOD: "basic" })[0]).toMatch(
      /^OIDC_TOKEN_AUTH_METHOD .*client_secret_basic/,
    );
    expect(problemsOf({ ...oidc, OIDC_TOKEN_AUTH_METHOD: "client_secret_basic" })).toEqual([
      "OIDC_TOKEN_AUTH_METHOD=client_secret_basic needs OIDC_CLIENT_SECRET",
    ]);
    expect(problemsOf({ ...oidc, OIDC_TOKEN_AUTH_METHOD: "private_key_jwt" })[0]).toMatch(
      /^OIDC_TOKEN_AUTH_METHOD=private_key_jwt needs OIDC_PRIVATE_KEY_FILE/,
    );
    expect(problemsOf({ ...oidc, OIDC_PRIVATE_KEY_ID: "k1" })).toEqual([
      "OIDC_PRIVATE_KEY_ID must be set with OIDC_PRIVATE_KEY_FILE",
    ]);
  });

  it("runs one server process per core unless ETS_WORKERS says how many", () => {
    expect(loadConfig({}).workers).toBe(os.availableParallelism());
    expect(loadConfig({ ETS_WORKERS: "1" }).workers).toBe(1);
    expect(loadConfig({ ETS_WORKERS: "6" }).workers).toBe(6);
    expect(loadConfig({ ETS_WORKERS: " " }).workers).toBe(os.availableParallelism());
  });

  it("names ETS_WORKERS when it is not a whole number from 1 to 256", () => {
    for (const bad of ["0", "-1", "two", "1.5", "257", "1000"]) {
      const problems = problemsOf({ ETS_WORKERS: bad });
      expect(problems, bad).toHaveLength(1);
      expect(problems[0], bad).toBe(
        "ETS_WORKERS must be a whole number of processes from 1 to 256",
      );
    }
  });

  it("runs one process on an in-memory database, and refuses more", () => {
    expect(loadConfig({ DATABASE_URL: "sqlite::memory:" }).workers).toBe(1);
    expect(problemsOf({ DATABASE_URL: "sqlite::memory:", ETS_WORKERS: "2" })).toEqual([
      "ETS_WORKERS must be 1 with an in-memory database (DATABASE_URL=sqlite::memory:)",
    ]);
  });

  it("starts requests in turns unless ETS_REQUEST_TURNS is off, and names a bad value", () => {
    expect(loadConfig({}).requestTurns).toBe(true);
    expect(loadConfig({ ETS_REQUEST_TURNS: "off" }).requestTurns).toBe(false);
    expect(problemsOf({ ETS_REQUEST_TURNS: "no" })[0]).toMatch(/^ETS_REQUEST_TURNS /);
  });
  it("reads REPOSITORY_SWORD_URL into the service document's address and its credentials, never echoing the password", () => {
    expect(loadConfig({}).repositorySword).toBeNull();
    const sword = loadConfig({
      REPOSITORY_SWORD_URL:
        "https://depositor:s%40cret%3Apass@repository.school.edu/swordv2/servicedocument",
    }).repositorySword;
    expect(sword).toEqual({
      serviceDocumentUrl: "https://repository.school.edu/swordv2/servicedocument",
      username: "depositor",
      password: "s@cret:pass",
    });
    // Plain http only to this machine: the password would cross the network.
    const remote = problemsOf({ REPOSITORY_SWORD_URL: "http://u:hunter22@repo.school.edu/sd" });
    expect(remote).toHaveLength(1);
    expect(remote[0]).toMatch(/^REPOSITORY_SWORD_URL must be an https:\/\/ address/);
    expect(remote[0]).not.toContain("hunter22");
    expect(
      loadConfig({ REPOSITORY_SWORD_URL: "http://u:p@127.0.0.1:8080/sd" }).repositorySword
        ?.serviceDocumentUrl,
    ).toBe("http://127.0.0.1:8080/sd");
    expect(problemsOf({ REPOSITORY_SWORD_URL: "https://repo.school.edu/sd" })[0]).toMatch(
      /^REPOSITORY_SWORD_URL must carry the repository account/,
    );
    expect(problemsOf({ REPOSITORY_SWORD_URL: "ftp://u:p@repo/sd" })[0]).toMatch(
      /^REPOSITORY_SWORD_URL must be an https:\/\/ address/,
    );
    expect(problemsOf({ REPOSITORY_SWORD_URL: "not a url" })[0]).toMatch(/^REPOSITORY_SWORD_URL /);
  });
  it("reads how often the deposit queue is looked at, 30 s unless ETS_DEPOSIT_INTERVAL_SECONDS says otherwise", () => {
    expect(loadConfig({}).depositIntervalMs).toBe(30_000);
    expect(loadConfig({ ETS_DEPOSIT_INTERVAL_SECONDS: "2" }).depositIntervalMs).toBe(2000);
    expect(problemsOf({ ETS_DEPOSIT_INTERVAL_SECONDS: "0" })[0]).toMatch(
      /^ETS_DEPOSIT_INTERVAL_SECONDS must be a whole number of seconds from 1 to 3600/,
    );
    expect(problemsOf({ ETS_DEPOSIT_INTERVAL_SECONDS: "soon" })[0]).toMatch(
      /^ETS_DEPOSIT_INTERVAL_SECONDS /,
    );
  });
});

describe("the public site's settings (decisions/027)", () => {
  it("defaults from PUBLIC_URL and the contact addresses, in their order", () => {
    const plain = loadConfig({ PUBLIC_URL: "https://theses.example.edu" }).publicSite;
    expect(plain).toEqual({
      repositoryName: "Theses",
      institution: "Theses",
      oaiAdminEmail: "webmaster@theses.example.edu",
      oaiIdentifierHost: "theses.example.edu",
    });
    expect(loadConfig({ PUBLIC_URL: "http://localhost:3000" }).publicSite.oaiAdminEmail).toBe(
      "webmaster@localhost.localdomain",
    );
    expect(
      loadConfig({ ETS_ADMIN_EMAIL: "a@x.edu", ETS_ADMIN_PASSWORD: "long enough password 1" })
        .publicSite.oaiAdminEmail,
    ).toBe("a@x.edu");
    expect(
      loadConfig({ ETS_CONTACT_EMAIL: "c@x.edu", ETS_OAI_ADMIN_EMAIL: "oai@x.edu" }).publicSite
        .oaiAdminEmail,
    ).toBe("oai@x.edu");
    expect(loadConfig({ ETS_CONTACT_EMAIL: "c@x.edu" }).publicSite.oaiAdminEmail).toBe("c@x.edu");
  });

  it("takes the names and the identifier host as given", () => {
    const site = loadConfig({
      ETS_REPOSITORY_NAME: "UG Theses",
      ETS_INSTITUTION: "University of Ghana",
      ETS_OAI_IDENTIFIER: "theses.ug.edu.gh",
    }).publicSite;
    expect(site.repositoryName).toBe("UG Theses");
    expect(site.institution).toBe("University of Ghana");
    expect(site.oaiIdentifierHost).toBe("theses.ug.edu.gh");
  });

  it("refuses an admin email that is not one and an identifier that is not a host name", () => {
    expect(problemsOf({ ETS_OAI_ADMIN_EMAIL: "nobody" })[0]).toMatch(/^ETS_OAI_ADMIN_EMAIL /);
    expect(problemsOf({ ETS_OAI_IDENTIFIER: "not a host" })[0]).toMatch(/^ETS_OAI_IDENTIFIER /);
  });
});

describe("webhooks' settings (decisions/023)", () => {
  it("reads WEBHOOK_ALLOWED_HOSTS as lower-case host names, none by default, and names a bad one", () => {
    expect(loadConfig({}).webhooks.allowedHosts).toEqual([]);
    expect(
      loadConfig({ WEBHOOK_ALLOWED_HOSTS: " Receiver.Local , 127.0.0.1,[::1] " }).webhooks
        .allowedHosts,
    ).toEqual(["receiver.local", "127.0.0.1", "::1"]);
    const problems = problemsOf({ WEBHOOK_ALLOWED_HOSTS: "https://hooks.example.org/x" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("WEBHOOK_ALLOWED_HOSTS");
    expect(problems[0]).toContain("https://hooks.example.org/x");
  });
});
