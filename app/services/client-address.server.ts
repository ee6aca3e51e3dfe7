import { isIPv4, isIPv6 } from "node:net";

/**
 * The address that per-address limits count against. IPv4 addresses count one by one; an IPv6 address counts
 * by its /64, since one home or phone gets a whole /64 and can take a new address from it for every request.
 * The sign-in locks pass 48: a site or a rented server is routed a whole /48, 65,536 /64s to guess from.
 */
export function clientAddressKey(clientIp: string, ipv6PrefixLength: 48 | 64 = 64): string {
  const mappedIpv4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(clientIp)?.[1];
  if (mappedIpv4) return mappedIpv4;
  if (isIPv4(clientIp) || !isIPv6(clientIp)) return clientIp;
  return `${expandIpv6(clientIp)
    .slice(0, ipv6PrefixLength / 16)
    .join(":")}::/${ipv6PrefixLength}`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros, `::` filled in. */
function expandIpv6(address: string): string[] {
  const withoutZone = address.split("%")[0] ?? address;
  const [head = "", tail] = withoutZone.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeroGroups = tail === undefined ? 0 : Math.max(8 - headGroups.length - tailGroups.length, 0);
  const groups = [...headGroups, ...Array<string>(zeroGroups).fill("0"), ...tailGroups];
  return groups.map((group) => (/^[0-9a-f]+$/i.test(group) ? Number.parseInt(group, 16).toString(16) : group));
}
