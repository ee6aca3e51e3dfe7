import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { isPublicAddress, publicAddressLookup, reachesPublicAddressesOnly } from "./public-address.server";

/** What the lookup hands a socket, asked as Node's net asks it (one address, or all for Happy Eyeballs). */
function lookedUp(hostname: string, all: boolean) {
  return new Promise<{ error: Error | null; answer: string | LookupAddress[]; family?: number }>((resolve) =>
    publicAddressLookup(hostname, { all }, (error, answer, family) => resolve({ error, answer, family })),
  );
}

describe("public addresses", () => {
  it("takes addresses of the public internet, IPv4 and IPv6, mapped and NAT64 ones to a public IPv4 too", () => {
    for (const address of [
      "8.8.8.8",
      "142.250.72.10",
      "1.1.1.1",
      "100.63.255.255",
      "100.128.0.0",
      "172.15.255.255",
      "172.32.0.0",
      "2607:f8b0:4004:c1b::5f",
      "2a00:1450:4001:82b::200a",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it("refuses loopback, private, shared, link-local, unique-local, multicast, unspecified and metadata addresses", () => {
    for (const address of [
      "127.0.0.1",
      "127.255.0.9",
      "10.0.0.5",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "100.64.0.1",
      "100.100.100.200",
      "169.254.169.254",
      "168.63.129.16",
      "0.0.0.0",
      "224.0.0.251",
      "255.255.255.255",
      "192.0.2.1",
      "198.18.0.1",
      "::",
      "::1",
      "::127.0.0.1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.1.2.3",
      "::ffff:169.254.169.254",
      "64:ff9b::7f00:1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b:1::1",
      "fe80::1",
      "fe80::1%eth0",
      "fd00:ec2::254",
      "fc00::1",
      "ff02::1",
      "2001:db8::1",
      "2002:7f00:1::1",
      "2001:0:4136:e378::1",
      "not an address",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it("checks a name by every address it resolves to, and an address as it is", async () => {
    await expect(reachesPublicAddressesOnly("localhost")).resolves.toBe(false);
    await expect(reachesPublicAddressesOnly("127.0.0.1")).resolves.toBe(false);
    await expect(reachesPublicAddressesOnly("8.8.8.8")).resolves.toBe(true);
    await expect(reachesPublicAddressesOnly("no-such-host.invalid")).rejects.toThrow();
  });

  it("hands a socket the addresses it resolved when all are public, one or all as asked, and an error otherwise", async () => {
    expect(await lookedUp("8.8.8.8", false)).toEqual({ error: null, answer: "8.8.8.8", family: 4 });
    expect(await lookedUp("8.8.8.8", true)).toMatchObject({ error: null, answer: [{ address: "8.8.8.8", family: 4 }] });
    const refused = await lookedUp("localhost", true);
    expect(refused.error).toMatchObject({ code: "ENOTPUBLIC" });
  });
});
