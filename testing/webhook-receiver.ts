import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A webhook receiver for tests and the benchmark, listening on 127.0.0.1 only. It records every
 * request (headers and raw body, in arrival order) and answers as `answer` says: a status, or
 * a custom reply (a redirect, a body that never ends, no answer at all).
 */
export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Answer = (request: ReceivedRequest, res: http.ServerResponse) => number | "custom";

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  answer: Answer;
  close(): Promise<void>;
}

export async function startWebhookReceiver(answer: Answer = () => 200): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const receiver: Partial<WebhookReceiver> = { received, answer };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(request);
      const status = receiver.answer!(request, res);
      if (status !== "custom") res.writeHead(status, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  receiver.port = port;
  receiver.url = `http://127.0.0.1:${port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver as WebhookReceiver;
}
