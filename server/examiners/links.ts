import { randomBytes } from "node:crypto";
import { examinerLinkUrl, type ExaminationState } from "../../common/examiners.js";
import { hashToken } from "../auth/tokens.js";
import type { Config } from "../config.js";
import { nowIso } from "../db/database.js";
import { enqueueMail, type OutgoingMail } from "../mail/outbox.js";
import type { Executor } from "../db/database.js";
import { addExaminationLink, type LinkPurpose } from "./repository.js";

/**
 * The one path every examiner link takes (docs/decisions/009-examiners.md): the invitation
 * ("Send to examiners"), the corrected thesis's mail and each reminder. A link is 32 random bytes
 * (base64url, 43 characters) stored only as its SHA-256 in examiner_links, with its own expiry
 * `ETS_EXAMINER_LINK_DAYS` from now; the examination's earlier links keep working until they
 * expire or the school revokes them. The token leaves this function only inside the mail's text
 * (a secret mail, scrubbed once delivered) and as the return value, for the tests.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export interface IssuedLink {
  token: string;
  /** `${PUBLIC_URL}/examiner#<token>`. */
  url: string;
  expiresAt: string;
}

/**
 * Makes a link for the examination and queues the mail that carries it, both in the caller's
 * transaction. `sent` (a send) also dates the examination's sending, due date and state.
 */
export async function issueLink(
  trx: Executor,
  config: Pick<Config, "publicUrl" | "examiners">,
  examinationId: number,
  purpose: LinkPurpose,
  mailWith: (link: IssuedLink) => OutgoingMail,
  now: Date,
  sent?: { dueOn: string; state: ExaminationState },
): Promise<IssuedLink> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = nowIso(new Date(now.getTime() + config.examiners.linkDays * DAY_MS));
  await addExaminationLink(trx, examinationId, {
    tokenHash: hashToken(token),
    purpose,
    createdAt: nowIso(now),
    expiresAt,
    ...(sent ? { sent } : {}),
  });
  const link = { token, url: examinerLinkUrl(config.publicUrl, token), expiresAt };
  const mail = mailWith(link);
  await enqueueMail(trx, { ...mail, secret: true }, now);
  return link;
}
