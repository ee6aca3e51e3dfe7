import { describe, expect, it } from "vitest";
import { findFreePort, findFreePorts, isPortFree } from "./free-port.server";

describe("findFreePorts", () => {
  it("gives distinct ports that are free, none of those it is told to avoid", async () => {
    const avoided = await findFreePort();
    const ports = await findFreePorts(40, [avoided]);
    expect(ports).toHaveLength(40);
    expect(new Set(ports).size).toBe(40);
    expect(ports).not.toContain(avoided);
    for (const port of ports) expect(await isPortFree(port)).toBe(true);
  });
});
