import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Selectable } from "kysely";
import type nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport/index.js";
import type { Config } from "../config.js";
import { nowIso, type Db } from "../db/database.js";
import { queueClaimOf, selectSkippingLocked } from "../db/dialect.js";
import type { OutboxTable } from "../db/schema.js";
import { lazyModule } from "../lazy-module.js";
import { scrubbedMailColumns } from "./outbox.js";

/**
 * Delivers the outbox (docs/decisions/004-accounts-and-mail.md). Each pass claims due rows one by
 * one (claimDueMail), so two passes, in one process or on several servers sharing the database
 * (docs/decisions/008-several-servers.md), never send the same row; a failed attempt is retried
 * with exponential back-off and, after MAIL_MAX_ATTEMPTS, the row is marked "failed" for the
 * administrators to see. A row is never deleted; a secret mail's text is scrubbed once the row is
 * sent or failed (OutgoingMail.secret).
 */
export const MAIL_MAX_ATTEMPTS = 8;
const RETRY_BASE_MS = 60 * 1000;
const RETRY_CAP_MS = 2 * 3600 * 1000;
/** A claimed row is hidden from other passes this long: longer than any SMTP time-out below. */
const CLAIM_LEASE_MS = 5 * 60 * 1000;
const BATCH_SIZE = 20;

/** Wait before attempt n+1 after n failed attempts: 1, 2, 4 ... minutes, at most 2 hours. */
export function mailRetryDelayMs(failedAttempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1), RETRY_CAP_MS);
}

export interface MailMessage {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
}

/** The part of a nodemailer transport the worker uses. */
export interface MailTransport {
  sendMail(message: MailMessage): Promise<unknown>;
  close(): void;
}

export interface MailDeps {
  db: Db;
  config: Pick<Config, "smtpUrl" | "mailFrom" | "mailSecretsToLog">;
  log: FastifyBaseLogger;
  /** Reused across passes by the worker; a one-off pass opens and closes its own. */
  transport?: MailTransport | null;
}

export interface DeliveryReport {
  sent: number;
  retried: number;
  failed: number;
}

/** Loaded with the first SMTP transport: without SMTP_URL mail goes to the log and needs neither. */
const mailer = lazyModule<typeof nodemailer>("nodemailer");
const smtpTransport = lazyModule<typeof SMTPTransport>("nodemailer/lib/smtp-transport/index.js");

export function createTransport(smtpUrl: string): MailTransport {
  const SmtpTransport = smtpTransport();
  // Built from the transport class because createTransport(url) drops every option next to a URL.
  return mailer().createTransport(
    new SmtpTransport({
      url: smtpUrl,
      // nodemailer waits two minutes by default; a dead SMTP server should cost a retry, not a stall.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 60_000,
    }),
  );
}

/** One delivery pass over the due mail. The worker calls it on a timer; tests call it directly. */
export async function deliverDueMail(
  deps: MailDeps,
  now: Date = new Date(),
): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, retried: 0, failed: 0 };
  const { db, config, log } = deps;
  const ownTransport = deps.transport === undefined && config.smtpUrl !== null;
  // Opened with the first claimed mail, so a pass with nothing due connects to nothing.
  let transport: MailTransport | null | undefined = deps.transport;
  try {
    for await (const mail of claimDueMail(db, now)) {
      if (transport === undefined) {
        transport = config.smtpUrl ? createTransport(config.smtpUrl) : null;
      }
      const attempts = mail.attempts + 1;
      try {
        if (transport) {
          await transport.sendMail({
            from: config.mailFrom,
            to: mail.to_address,
            subject: mail.subject,
            text: mail.text_body,
            ...(mail.html_body ? { html: mail.html_body } : {}),
            ...(mail.reply_to ? { replyTo: mail.reply_to } : {}),
          });
        } else if (Number(mail.carries_secret) === 1 && !config.mailSecretsToLog) {
          // Production without SMTP (ETS_MAIL_TO_LOG=on): who and what, never the code or link.
          log.info(
            { mail: { to: mail.to_address, subject: mail.subject } },
            "mail not sent (no SMTP_URL); its text carries a secret and is not logged",
          );
        } else {
          // No SMTP server configured: the log is the mailbox, so a local user can sign up
          // offline. Outside production, the one log line that may carry a sign-in code.
          log.info(
            { mail: { to: mail.to_address, subject: mail.subject, text: mail.text_body } },
            "mail not sent (no SMTP_URL); its text follows",
          );
        }
        await db
          .updateTable("outbox")
          .set({
            status: "sent",
            attempts,
            sent_at: nowIso(new Date()),
            last_error: null,
            ...secretScrubbed(mail),
          })
          .where("id", "=", mail.id)
          .execute();
        report.sent += 1;
      } catch (error) {
        const lastError = describeError(error);
        const giveUp = attempts >= MAIL_MAX_ATTEMPTS;
        await db
          .updateTable("outbox")
          .set({
            status: giveUp ? "failed" : "pending",
            attempts,
            last_error: lastError,
            next_attempt_at: nowIso(new Date(now.getTime() + mailRetryDelayMs(attempts))),
            // Given up on: nothing will send this text any more.
            ...(giveUp ? secretScrubbed(mail) : {}),
          })
          .where("id", "=", mail.id)
          .execute();
        if (giveUp) report.failed += 1;
        else report.retried += 1;
        log.warn(
          { outboxId: mail.id, attempts, giveUp, error: lastError },
          giveUp ? "mail delivery failed for good" : "mail delivery failed; will retry",
        );
      }
    }
  } finally {
    if (ownTransport) transport?.close();
  }
  return report;
}

type OutboxRow = Selectable<OutboxTable>;

function dueMail(db: Db, now: Date) {
  return db
    .selectFrom("outbox")
    .selectAll()
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", nowIso(now))
    .orderBy("next_attempt_at")
    .orderBy("id");
}

/**
 * Claims up to BATCH_SIZE due mails, one at a time, each just before it is sent, by moving its next
 * attempt CLAIM_LEASE_MS ahead: other passes, here or on another server, no longer see it as due.
 * How the claim is made is the engine's (queueClaimOf): on PostgreSQL the next due row is locked
 * with SKIP LOCKED in a short transaction, so several servers each take a different mail and none
 * waits for another; on SQLite, with one writer at a time, a conditional UPDATE is the claim.
 */
async function* claimDueMail(db: Db, now: Date): AsyncGenerator<OutboxRow> {
  const lease = nowIso(new Date(now.getTime() + CLAIM_LEASE_MS));
  if (queueClaimOf(db) === "skip-locked") {
    for (let claimed = 0; claimed < BATCH_SIZE; claimed += 1) {
      const mail = await db.transaction().execute(async (trx) => {
        const next = await selectSkippingLocked(dueMail(trx, now).limit(1)).executeTakeFirst();
        if (next) {
          await trx
            .updateTable("outbox")
            .set({ next_attempt_at: lease })
            .where("id", "=", next.id)
            .execute();
        }
        return next;
      });
      if (!mail) return;
      yield mail;
    }
    return;
  }
  const due = await dueMail(db, now).limit(BATCH_SIZE).execute();
  for (const mail of due) {
    const claim = await db
      .updateTable("outbox")
      .set({ next_attempt_at: lease })
      .where("id", "=", mail.id)
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", nowIso(now))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) === 1) yield mail; // otherwise another pass has it
  }
}

/**
 * A delivered secret (a sign-in code, an examiner's link) does not stay at rest in the outbox: the
 * row keeps its recipient, subject and template name, the text and parameters go.
 */
function secretScrubbed(mail: OutboxRow) {
  return Number(mail.carries_secret) === 1 ? scrubbedMailColumns(mail.template) : {};
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}

/**
 * Runs deliverDueMail every config.mailPollIntervalMs while the app is up (config.mailWorker),
 * starting when the app is ready and stopping, after the pass in flight, when it starts closing.
 */
export const mailWorker = fp(
  async (app: FastifyInstance) => {
    if (!app.config.mailWorker) return;
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<unknown> | null = null;
    let stopped = false;
    const transport = app.config.smtpUrl ? createTransport(app.config.smtpUrl) : null;
    const deps: MailDeps = { db: app.db, config: app.config, log: app.log, transport };

    const tick = () => {
      running = deliverDueMail(deps)
        .catch((error: unknown) => app.log.error({ err: error }, "mail delivery pass failed"))
        .finally(() => {
          running = null;
          if (!stopped) timer = setTimeout(tick, app.config.mailPollIntervalMs);
        });
    };

    app.addHook("onReady", async () => {
      tick();
    });
    // preClose, not onClose: onClose hooks run last-registered first, so the database could be
    // destroyed under a pass that has sent a mail but not yet marked it sent.
    app.addHook("preClose", async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      transport?.close();
    });
  },
  { name: "ets-mail-worker" },
);
