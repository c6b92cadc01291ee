import dns from "node:dns";
import net from "node:net";

/**
 * Which addresses an outgoing request made for someone else (a webhook) may reach: no loopback,
 * private, link-local or otherwise special address (SSRF; docs/decisions/023-webhooks.md), unless
 * the URL's host is one the installation names in WEBHOOK_ALLOWED_HOSTS. The caller connects to
 * the address checked here, never looking the name up a second time (DNS rebinding).
 */

const REFUSED = new net.BlockList();
// IPv4: this network (0.0.0.0/8, so 0.0.0.0 too), private, carrier-grade NAT, loopback,
// link-local, IETF protocol assignments, benchmarking, multicast, reserved and broadcast.
for (const [prefix, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  REFUSED.addSubnet(prefix, bits, "ipv4");
}
// IPv6: unspecified, loopback, unique local, link-local, site-local (deprecated) and multicast.
REFUSED.addAddress("::", "ipv6");
REFUSED.addAddress("::1", "ipv6");
for (const [prefix, bits] of [
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  REFUSED.addSubnet(prefix, bits, "ipv6");
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach it: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated) and the NAT64 well-known prefix
 * (64:ff9b::a.b.c.d). Null for any other IPv6 address.
 */
export function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const head = groups.slice(0, 6);
  const zeros = (n: number) => head.slice(0, n).every((g) => g === 0);
  const mapped = zeros(5) && head[5] === 0xffff;
  const compatible = zeros(6) && (groups[6] !== 0 || groups[7]! > 1);
  const nat64 = head[0] === 0x64 && head[1] === 0xff9b && head.slice(2).every((g) => g === 0);
  if (!mapped && !compatible && !nat64) return null;
  const [high, low] = [groups[6]!, groups[7]!];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/** The eight 16-bit groups of an IPv6 address, or null if it is not one. */
function expandIpv6(address: string): number[] | null {
  if (net.isIPv6(address) === false) return null;
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  // A dotted IPv4 tail becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split(".").map(Number);
    const tail = `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
    text = text.slice(0, dotted.index) + tail;
  }
  const [left, right] = text.split("::") as [string, string | undefined];
  const head = left ? left.split(":") : [];
  const tail = right === undefined ? [] : right ? right.split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (right === undefined ? head.length !== 8 : missing < 0) return null;
  const groups = [...head, ...Array<string>(right === undefined ? 0 : missing).fill("0"), ...tail];
  return groups.map((g) => parseInt(g, 16));
}

/** Whether an outgoing request must not reach this address (an IP address as text). */
export function isRefusedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return REFUSED.check(address, "ipv4");
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== null) return REFUSED.check(inner, "ipv4");
    return REFUSED.check(address.replace(/%.*$/, ""), "ipv6");
  }
  return true; // not an address at all: never connect to it
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Looks a host name up: every address it has. Tests replace it. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

declare module "fastify" {
  interface FastifyInstance {
    /** The app's host name lookup for outgoing requests (AppOptions.resolveHost). */
    resolveHost: Resolver;
  }
}

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

export type TargetCheck =
  | { ok: true; url: URL; hostname: string; addresses: ResolvedAddress[] }
  | { ok: false; reason: string };

export interface TargetCheckOptions {
  /** Host names (lower case) allowed whatever they resolve to (WEBHOOK_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  resolve?: Resolver;
}

/**
 * Parses and checks an outgoing request's address. The URL parser already turns every spelling
 * of an IPv4 address (127.1, 2130706433, 0x7f.1) into its dotted form and brackets IPv6 ones, so
 * the check sees the address that would be reached. A name is looked up and refused if ANY of its
 * addresses is refused; the caller connects to `addresses[0]` (never a second lookup).
 */
export async function checkOutgoingUrl(
  value: string,
  options: TargetCheckOptions,
): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: "is not a valid address (e.g. https://example.org/hooks)" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, reason: "must start with https:// or http://" };
  }
  if (url.username || url.password) {
    return { ok: false, reason: "must not carry a user name or password" };
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (hostname === "") return { ok: false, reason: "has no host" };
  const allowed = options.allowedHosts.includes(hostname);
  const literal = net.isIP(hostname);
  if (literal !== 0) {
    if (!allowed && isRefusedAddress(hostname)) {
      return { ok: false, reason: refusedReason(hostname) };
    }
    return {
      ok: true,
      url,
      hostname,
      addresses: [{ address: hostname, family: literal as 4 | 6 }],
    };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.resolve ?? systemResolver)(hostname);
  } catch {
    return { ok: false, reason: `names a host that could not be found (${hostname})` };
  }
  if (addresses.length === 0) {
    return { ok: false, reason: `names a host that could not be found (${hostname})` };
  }
  if (!allowed) {
    const refused = addresses.find((entry) => isRefusedAddress(entry.address));
    if (refused) {
      return { ok: false, reason: `${refusedReason(refused.address)} (${hostname})` };
    }
  }
  return { ok: true, url, hostname, addresses };
}

function refusedReason(address: string): string {
  return `reaches ${address}, a loopback, private, link-local or reserved address, which is refused (an installation can allow a named host with WEBHOOK_ALLOWED_HOSTS)`;
}
