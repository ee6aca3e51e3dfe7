import { lookup as dnsLookup } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Addresses of the public internet only: what a server may post to for an address someone signed in gave it (a
 * browser's push service), never this machine, its networks or its cloud's metadata service. Node's BlockList
 * holds the ranges (IANA's special-purpose registries); an IPv4-mapped IPv6 address is checked as its IPv4 one.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", the unspecified address
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT (Alibaba's metadata service is 100.100.100.200)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, the clouds' metadata service 169.254.169.254 included
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relays
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, the broadcast address included
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv4");
}
// Azure's host address, which answers its metadata and agent protocols from inside every VM.
NOT_PUBLIC.addAddress("168.63.129.16", "ipv4");

/** IPv6's global unicast block: everything outside it (loopback, link-local, unique-local, multicast...) is not public. */
const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet("2000::", 3, "ipv6");
for (const [network, prefix] of [
  ["2001::", 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4, which carries any IPv4 address
  ["3fff::", 20], // documentation
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv6");
}

/** The IPv6 address as eight 16-bit groups (a zone such as %eth0 left off). */
function ipv6Groups(address: string): number[] {
  // The URL parser writes the address canonically: hex groups only, `::` at most once.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = "", tail] = canonical.split("::");
  const groups = (text: string | undefined) => (text ? text.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const start = groups(head);
  const end = groups(tail);
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end];
}

/** The IPv4 address a NAT64 address (64:ff9b::/96, RFC 6052) reaches, or undefined for any other. */
function nat64Target(address: string): string | undefined {
  const groups = ipv6Groups(address);
  if (groups[0] !== 0x64 || groups[1] !== 0xff9b || groups.slice(2, 6).some((group) => group !== 0)) return undefined;
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/** Whether an IP address (v4 or v6) is on the public internet. Anything that is not an IP address is not. */
export function isPublicAddress(address: string): boolean {
  const bare = address.split("%")[0] ?? "";
  const version = isIP(bare);
  if (version === 4) return !NOT_PUBLIC.check(bare, "ipv4");
  if (version !== 6) return false;
  if (bare.toLowerCase().startsWith("::ffff:")) return !NOT_PUBLIC.check(bare, "ipv6");
  const reached = nat64Target(bare);
  if (reached !== undefined) return !NOT_PUBLIC.check(reached, "ipv4");
  return GLOBAL_UNICAST_V6.check(bare, "ipv6") && !NOT_PUBLIC.check(bare, "ipv6");
}

/** A name that resolved to an address that is not public: nothing was connected to. */
export class NotPublicAddressError extends Error {
  override name = "NotPublicAddressError";
  readonly code = "ENOTPUBLIC";
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to ${address}, which is not a public address`);
  }
}

/**
 * dns.lookup for an http(s) agent's `lookup` option that fails when any address the name resolves to is not
 * public: the addresses checked are the ones the socket connects to, so a DNS answer cannot change between a check
 * and the connection. A host given as an IP address is not looked up by Node at all: check it with
 * `isPublicAddress` before the request.
 */
export const publicAddressLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const refused = addresses.find(({ address }) => !isPublicAddress(address));
    const [first] = addresses;
    if (refused || !first) return callback(new NotPublicAddressError(hostname, refused?.address ?? "nothing"), "", 0);
    if (options.all) return callback(null, addresses);
    callback(null, first.address, first.family);
  });
};

/** A URL's host as an IP address or a name, without the brackets of an IPv6 address. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Whether the host reaches the public internet only: an IP address is checked as it is, a name by every address
 * it resolves to now. Rejects when the name cannot be resolved.
 */
export async function reachesPublicAddressesOnly(hostname: string): Promise<boolean> {
  if (isIP(hostname) !== 0) return isPublicAddress(hostname);
  return new Promise((resolve, reject) =>
    publicAddressLookup(hostname, { all: true }, (error) => {
      if (error instanceof NotPublicAddressError) resolve(false);
      else if (error) reject(error);
      else resolve(true);
    }),
  );
}
