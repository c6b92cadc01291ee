import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A SWORD v2 endpoint of the tests' own (node:http on 127.0.0.1), speaking what the deposit needs
 * of the SWORD 2.0 profile: a service document with one collection taking METS DSpace SIP, a
 * deposit (POST of a package to the Col-IRI, with Content-MD5, Packaging, In-Progress and Slug
 * checked) answered by a deposit receipt (an Atom entry), and completing an item deposited
 * In-Progress (an empty POST to its SE-IRI with In-Progress: false). Basic authentication on
 * every request. It stores what it gets, and can be told to fail the next deposits, or to take
 * the next deposits and lose their answers (the connection is cut after the item is stored).
 */

export const METS_DSPACE_SIP = "http://purl.org/net/sword/package/METSDSpaceSIP";

export interface SwordItem {
  id: number;
  slug: string | null;
  packaging: string;
  md5: string;
  body: Buffer;
  /** Still In-Progress: an unfinished item the repository does not publish. */
  inProgress: boolean;
  /** The handle once completed. */
  handle: string | null;
}

export interface SwordRequestSeen {
  method: string;
  path: string;
  /** The header names and values, Authorization left out. */
  headers: Record<string, string>;
  authorized: boolean;
}

export interface SwordServer {
  /** REPOSITORY_SWORD_URL for the app: the service document with the credentials inside. */
  serviceDocumentUrl: string;
  origin: string;
  items: SwordItem[];
  requests: SwordRequestSeen[];
  /** The next n deposits answer 500 and store nothing. */
  failNextDeposits(n: number): void;
  /** The next n deposits are stored, then the connection is cut before the answer. */
  loseNextAnswers(n: number): void;
  /** Published items: completed (not In-Progress). */
  completed(): SwordItem[];
  close(): Promise<void>;
}

const ATOM = "http://www.w3.org/2005/Atom";
const SWORD = "http://purl.org/net/sword/terms/";

export async function startSwordServer(
  credentials: { username: string; password: string } = {
    username: "depositor",
    password: "s3cret-sword-pass",
  },
): Promise<SwordServer> {
  const items: SwordItem[] = [];
  const requests: SwordRequestSeen[] = [];
  let failing = 0;
  let losing = 0;
  let origin = "";
  const expected = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;

  const receipt = (item: SwordItem): string => {
    const edit = `${origin}/edit/${item.id}`;
    return (
      `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<entry xmlns="${ATOM}" xmlns:sword="${SWORD}">` +
      `<title>Item ${item.id}</title><id>${edit}</id><updated>${new Date().toISOString()}</updated>` +
      `<link rel="edit" href="${edit}"/>` +
      `<link rel="edit-media" href="${origin}/edit-media/${item.id}"/>` +
      `<link rel="${SWORD}add" href="${edit}"/>` +
      (item.handle ? `<link rel="alternate" href="${origin}/handle/${item.handle}"/>` : "") +
      `<sword:packaging>${METS_DSPACE_SIP}</sword:packaging>` +
      `<sword:treatment>Stored${item.inProgress ? " in progress" : " and completed"}</sword:treatment>` +
      `</entry>`
    );
  };
  const swordError = (href: string, summary: string): string =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<sword:error xmlns="${ATOM}" xmlns:sword="${SWORD}" href="${href}"><title>ERROR</title><updated>${new Date().toISOString()}</updated><summary>${summary}</summary></sword:error>`;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (name !== "authorization" && typeof value === "string") headers[name] = value;
      }
      const authorized = request.headers.authorization === expected;
      const path = request.url ?? "/";
      requests.push({ method: request.method ?? "", path, headers, authorized });
      const send = (status: number, text: string, extra: Record<string, string> = {}) => {
        response.writeHead(status, { "content-type": "application/atom+xml", ...extra });
        response.end(text);
      };
      if (!authorized) {
        send(401, swordError(`${SWORD}ErrorUnauthorized`, "Authentication needed"), {
          "www-authenticate": 'Basic realm="SWORD"',
        });
        return;
      }
      if (request.method === "GET" && path === "/sd") {
        send(
          200,
          `<?xml version="1.0" encoding="UTF-8"?>\n<service xmlns="http://www.w3.org/2007/app" xmlns:atom="${ATOM}" xmlns:sword="${SWORD}">` +
            `<sword:version>2.0</sword:version><workspace><atom:title>Theses</atom:title>` +
            `<collection href="${origin}/collection/other"><atom:title>Other</atom:title><sword:acceptPackaging>http://purl.org/net/sword/package/SimpleZip</sword:acceptPackaging></collection>` +
            `<collection href="${origin}/collection/theses"><atom:title>Theses</atom:title><accept>application/zip</accept>` +
            `<sword:acceptPackaging>${METS_DSPACE_SIP}</sword:acceptPackaging></collection>` +
            `</workspace></service>`,
          { "content-type": "application/atomsvc+xml" },
        );
        return;
      }
      if (request.method === "POST" && path === "/collection/theses") {
        if (failing > 0) {
          failing -= 1;
          send(500, swordError(`${SWORD}ErrorBadRequest`, "The repository is busy"));
          return;
        }
        const md5 = createHash("md5").update(body).digest("hex");
        if (headers["content-md5"] !== md5) {
          send(412, swordError(`${SWORD}ErrorChecksumMismatch`, "Content-MD5 does not match"));
          return;
        }
        if (headers.packaging !== METS_DSPACE_SIP) {
          send(415, swordError(`${SWORD}ErrorContent`, "Unsupported packaging"));
          return;
        }
        if (!/^attachment; filename=\S+/.test(headers["content-disposition"] ?? "")) {
          send(400, swordError(`${SWORD}ErrorBadRequest`, "Content-Disposition is missing"));
          return;
        }
        const inProgress = headers["in-progress"] === "true";
        if (!inProgress && headers["in-progress"] !== "false") {
          send(400, swordError(`${SWORD}ErrorBadRequest`, "In-Progress must be true or false"));
          return;
        }
        const item: SwordItem = {
          id: items.length + 1,
          slug: headers.slug ?? null,
          packaging: headers.packaging,
          md5,
          body,
          inProgress,
          handle: inProgress ? null : `123456789/${items.length + 1}`,
        };
        items.push(item);
        if (losing > 0) {
          losing -= 1;
          request.socket.destroy();
          return;
        }
        send(201, receipt(item), { location: `${origin}/edit/${item.id}` });
        return;
      }
      const edit = /^\/edit\/(\d+)$/.exec(path);
      if (request.method === "POST" && edit) {
        const item = items.find((candidate) => candidate.id === Number(edit[1]));
        if (!item) {
          send(404, swordError(`${SWORD}ErrorBadRequest`, "No such item"));
          return;
        }
        if (body.length === 0 && headers["in-progress"] === "false") {
          item.inProgress = false;
          item.handle ??= `123456789/${item.id}`;
          send(200, receipt(item));
          return;
        }
        send(400, swordError(`${SWORD}ErrorBadRequest`, "Only completion is supported"));
        return;
      }
      send(404, swordError(`${SWORD}ErrorBadRequest`, "Not found"));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  const user = encodeURIComponent(credentials.username);
  const pass = encodeURIComponent(credentials.password);
  return {
    serviceDocumentUrl: `http://${user}:${pass}@127.0.0.1:${port}/sd`,
    origin,
    items,
    requests,
    failNextDeposits: (n) => {
      failing = n;
    },
    loseNextAnswers: (n) => {
      losing = n;
    },
    completed: () => items.filter((item) => !item.inProgress),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
