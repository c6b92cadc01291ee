import { afterAll, beforeAll, describe, expect, it } from "vitest";
import nodemailer from "nodemailer";
import { startSmtpPeer, type SmtpPeer } from "./smtp-peer.js";

let peer: SmtpPeer;
beforeAll(async () => {
  peer = await startSmtpPeer();
});
afterAll(async () => {
  await peer.stop();
});

describe("SMTP test peer", () => {
  it("receives what nodemailer sends and decodes the subject and text", async () => {
    const transport = nodemailer.createTransport(peer.url);
    await transport.sendMail({
      from: "ETS <no-reply@ets.test>",
      to: "Ama@Example.edu",
      subject: "Votre code — ETS",
      text: `Your code is 123456.\n${"long line ".repeat(20)}= done`,
    });
    const mail = await peer.waitFor((m) => m.to.includes("ama@example.edu"));
    expect(mail.subject).toBe("Votre code — ETS");
    expect(mail.text).toContain("Your code is 123456.");
    expect(mail.text).toContain("= done");
  });

  it("refuses connections while stopped and accepts again after start", async () => {
    await peer.stop();
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: peer.port,
      secure: false,
      connectionTimeout: 1000,
    });
    await expect(
      transport.sendMail({ from: "a@b.c", to: "x@y.z", subject: "s", text: "t" }),
    ).rejects.toThrow();
    await peer.start();
    await transport.sendMail({ from: "a@b.c", to: "x@y.z", subject: "after", text: "t" });
    expect((await peer.waitFor((m) => m.subject === "after")).to).toEqual(["x@y.z"]);
  });
});
