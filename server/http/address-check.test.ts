import { describe, expect, it } from "vitest";
import {
  checkOutgoingUrl,
  embeddedIpv4,
  isRefusedAddress,
  type Resolver,
} from "./address-check.js";

/** A resolver that answers from a table, never the network. */
const table =
  (entries: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const found = entries[hostname];
    if (!found) throw new Error(`ENOTFOUND ${hostname}`);
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

const check = (url: string, resolve: Resolver = table({}), allowedHosts: string[] = []) =>
  checkOutgoingUrl(url, { allowedHosts, resolve });

describe("the outgoing address check (SSRF)", () => {
  it.each([
    ["http://127.0.0.1/hook", "127.0.0.1"],
    ["http://127.1/hook", "127.0.0.1"],
    ["http://2130706433/hook", "127.0.0.1"],
    ["http://0x7f.1/hook", "127.0.0.1"],
    ["http://017700000001/hook", "127.0.0.1"],
    ["http://[::1]/hook", "::1"],
    ["http://[::ffff:127.0.0.1]/hook", "::ffff:7f00:1"],
    ["http://[0:0:0:0:0:ffff:7f00:1]/hook", "::ffff:7f00:1"],
    ["http://0.0.0.0/hook", "0.0.0.0"],
    ["http://0/hook", "0.0.0.0"],
    ["http://[::]/hook", "::"],
  ])("refuses loopback spelled %s", async (url, address) => {
    const result = await check(url);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toContain(address);
      expect(result.reason).toContain("WEBHOOK_ALLOWED_HOSTS");
    }
  });

  it.each([
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.1.20",
    "169.254.169.254",
    "100.64.0.1",
    "[fc00::1]",
    "[fd12:3456::1]",
    "[fe80::1]",
    "[::ffff:10.0.0.1]",
    "[::ffff:169.254.169.254]",
    "[64:ff9b::a9fe:a9fe]",
  ])("refuses the private or link-local address %s", async (host) => {
    const result = await check(`https://${host}/hook`);
    expect(result.ok).toBe(false);
  });

  it.each(["172.15.255.255", "172.32.0.1", "11.0.0.1", "169.253.0.1", "8.8.8.8", "[2001:db8::1]"])(
    "accepts the public address %s (just outside the refused ranges)",
    async (host) => {
      const result = await check(`https://${host}/hook`);
      expect(result.ok).toBe(true);
    },
  );

  it("refuses a name that resolves to loopback, through the system's resolver too (localhost)", async () => {
    const viaTable = await check(
      "https://hooks.example.org/x",
      table({ "hooks.example.org": ["127.0.0.1"] }),
    );
    expect(viaTable).toMatchObject({ ok: false });
    expect(!viaTable.ok && viaTable.reason).toContain("hooks.example.org");
    const viaSystem = await checkOutgoingUrl("http://localhost:9/hook", { allowedHosts: [] });
    expect(viaSystem.ok).toBe(false);
  });

  it("refuses a name if ANY of its addresses is refused, and accepts one whose addresses are all public", async () => {
    const mixed = table({ "mixed.example.org": ["93.184.216.34", "10.1.2.3"] });
    expect((await check("https://mixed.example.org/", mixed)).ok).toBe(false);
    const publicOnly = table({ "public.example.org": ["93.184.216.34", "2606:2800:220:1::1"] });
    const ok = await check("https://public.example.org/", publicOnly);
    expect(ok).toMatchObject({
      ok: true,
      hostname: "public.example.org",
      addresses: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:2800:220:1::1", family: 6 },
      ],
    });
  });

  it("allows a host WEBHOOK_ALLOWED_HOSTS names (compared after the URL's own normalisation), and no other", async () => {
    expect((await check("http://127.0.0.1:8080/hook", table({}), ["127.0.0.1"])).ok).toBe(true);
    expect((await check("http://127.1:8080/hook", table({}), ["127.0.0.1"])).ok).toBe(true);
    expect((await check("http://[::1]:8080/hook", table({}), ["127.0.0.1"])).ok).toBe(false);
    const named = table({ "receiver.internal": ["10.0.0.8"] });
    expect((await check("https://receiver.internal/", named, ["receiver.internal"])).ok).toBe(true);
    expect((await check("https://receiver.internal/", named, [])).ok).toBe(false);
  });

  it("refuses addresses that are not http(s), carry credentials or do not resolve", async () => {
    for (const [url, words] of [
      ["ftp://example.org/", "https://"],
      ["file:///etc/passwd", "https://"],
      ["not a url", "not a valid address"],
      ["https://user:pw@example.org/", "user name or password"],
      ["https://nowhere.example.org/", "could not be found"],
    ] as const) {
      const result = await check(url);
      expect(result.ok, url).toBe(false);
      expect(!result.ok && result.reason, url).toContain(words);
    }
  });

  it("finds the IPv4 address inside mapped, compatible and NAT64 IPv6 addresses", () => {
    expect(embeddedIpv4("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(embeddedIpv4("::ffff:192.168.0.1")).toBe("192.168.0.1");
    expect(embeddedIpv4("::7f00:1")).toBe("127.0.0.1");
    expect(embeddedIpv4("64:ff9b::8.8.8.8")).toBe("8.8.8.8");
    expect(embeddedIpv4("2001:db8::1")).toBeNull();
    expect(embeddedIpv4("::1")).toBeNull();
    expect(isRefusedAddress("::ffff:8.8.8.8")).toBe(false);
    expect(isRefusedAddress("not-an-address")).toBe(true);
  });
});
