import { describe, expect, it } from "vitest";
import { clientAddressKey } from "./client-address.server";

describe("the address a limit counts against", () => {
  it("is an IPv4 address itself, also when written as IPv4-mapped IPv6", () => {
    expect(clientAddressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(clientAddressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  it("is the /64 of an IPv6 address, however it is written", () => {
    expect(clientAddressKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientAddressKey("2001:0db8:0001:0002:ffff:0:0:9")).toBe("2001:db8:1:2::/64");
    expect(clientAddressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientAddressKey("::1")).toBe("0:0:0:0::/64");
    expect(clientAddressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("is the /48 of an IPv6 address for the sign-in locks, so a routed /48 counts as one address", () => {
    expect(clientAddressKey("2001:db8:1:2::1", 48)).toBe("2001:db8:1::/48");
    expect(clientAddressKey("2001:db8:1:ffff:0:0:0:9", 48)).toBe("2001:db8:1::/48");
    expect(clientAddressKey("2001:db8:2::1", 48)).toBe("2001:db8:2::/48");
    expect(clientAddressKey("::ffff:203.0.113.9", 48)).toBe("203.0.113.9");
  });

  it("keeps anything else as it is", () => {
    expect(clientAddressKey("unknown")).toBe("unknown");
  });
});
