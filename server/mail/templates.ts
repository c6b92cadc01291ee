import { CODE_TTL_MINUTES } from "../../common/accounts.js";
import type { OutgoingMail } from "./outbox.js";

/**
 * The product's mails. The sign-in code mail keeps the prototype's template parameters
 * (spec section 7: to_email, to_name, trackingCode).
 */
export function signInCodeMail(input: {
  to: string;
  name: string | null;
  code: string;
  publicUrl: string;
  firstCode: boolean;
}): OutgoingMail {
  const toName = input.name ?? input.to.split("@")[0] ?? input.to;
  const opening = input.firstCode
    ? "Welcome to ETS Tracking. Your account has been created."
    : "Here is a new sign-in code for ETS Tracking. Any earlier code no longer works.";
  return {
    to: input.to,
    subject: "Your ETS Tracking verification code",
    text: [
      `Hello ${toName},`,
      "",
      opening,
      "",
      `Your verification code is ${input.code}`,
      "",
      `It works once and expires in ${CODE_TTL_MINUTES} minutes. Sign in at ${input.publicUrl}/auth/login`,
      "with your email address and this code, then set a password of your own if you like.",
      "",
      "If you did not ask for this code, you can ignore this mail.",
      "",
      "School of Graduate Studies",
    ].join("\n"),
    template: {
      name: "sign_in_code",
      params: { to_email: input.to, to_name: toName, trackingCode: input.code },
    },
    secret: true,
  };
}

export function contactMail(input: { to: string; from: string; message: string }): OutgoingMail {
  return {
    to: input.to,
    replyTo: input.from,
    subject: `ETS Tracking contact form: message from ${input.from}`,
    text: [
      `${input.from} wrote through the ETS Tracking contact form:`,
      "",
      input.message,
      "",
      "Reply to this mail to answer them.",
    ].join("\n"),
    template: { name: "contact_message", params: { from_email: input.from } },
  };
}
