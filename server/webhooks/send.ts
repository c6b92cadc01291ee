import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { ResolvedAddress } from "../http/address-check.js";

/**
 * One HTTP POST to a webhook endpoint, connecting to an address already checked
 * (server/http/address-check.ts) instead of looking the name up again: the request keeps the
 * URL's host for the Host header and TLS (name and certificate), but its socket goes to `address`.
 * Redirects are not followed (a 3xx is an answer like any other, and a failed attempt); the whole
 * exchange is bounded by `timeoutMs`, and at most `maxResponseBytes` of the answer are read.
 */

export interface SendRequest {
  url: URL;
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  maxResponseBytes: number;
}

export interface SendResult {
  status: number;
  /** The start of the answer's body (at most maxResponseBytes), as text. */
  bodyStart: string;
}

/** Sends the request; tests replace it with one that fails if it is ever called. */
export type Sender = (request: SendRequest) => Promise<SendResult>;

export const httpSender: Sender = (request) =>
  new Promise<SendResult>((resolve, reject) => {
    const { url, address } = request;
    // The checked address, whatever the socket asks for: no second DNS lookup.
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) {
        callback(null, [{ address: address.address, family: address.family }]);
      } else {
        callback(null, address.address, address.family);
      }
    };
    const client = url.protocol === "https:" ? https : http;
    let settled = false;
    const finish = (error: Error | null, result?: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(result!);
    };
    const req = client.request(
      url,
      {
        method: "POST",
        lookup,
        agent: false,
        headers: {
          ...request.headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(request.body)),
          connection: "close",
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          finish(null, {
            status: res.statusCode ?? 0,
            bodyStart: Buffer.concat(chunks).toString("utf8"),
          });
          // Whatever else the receiver would send is not read.
          res.destroy();
          req.destroy();
        };
        res.on("data", (chunk: Buffer) => {
          const room = request.maxResponseBytes - size;
          if (room > 0) chunks.push(chunk.subarray(0, room));
          size += chunk.length;
          if (size >= request.maxResponseBytes) done();
        });
        res.on("end", done);
        res.on("error", (error) => finish(error));
      },
    );
    const timer = setTimeout(() => {
      const error = new Error(`no answer within ${Math.round(request.timeoutMs / 100) / 10} s`);
      finish(error);
      req.destroy(error);
    }, request.timeoutMs);
    req.on("error", (error) => finish(error));
    req.end(request.body);
  });
