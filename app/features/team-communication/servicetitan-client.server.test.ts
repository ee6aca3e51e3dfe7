import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ServiceTitanStandIn,
  type StandInTechnician,
  startServiceTitanStandIn,
} from "#tests/servicetitan-stand-in";
import { createServiceTitanClient, TECHNICIAN_LIST_TTL_MS } from "./servicetitan-client.server";

const logger = pino({ level: "silent" });
let standIn: ServiceTitanStandIn;
beforeAll(async () => {
  standIn = await startServiceTitanStandIn({ pageSize: 2 });
});
afterAll(() => standIn.close());

const TECHNICIANS: StandInTechnician[] = [
  { id: 101, name: "Ana Ruiz", email: "ana@example.com", phoneNumber: "(803) 555-0101", active: true },
  { id: 102, name: "", fullName: "Ben Okafor", email: null, phoneNumber: "803-555-0102", active: true },
  { id: 103, name: null, fullName: " ", displayName: "Cy (nights)", email: "cy@example.com", active: true },
  { id: 104, email: "nameless@example.com", phoneNumber: "call the office", active: true },
  { id: 105, name: "Dee Gone", email: "dee@example.com", phoneNumber: "8035550105", active: false },
];

/** A clock the test moves by hand, so token and list expiry are decided by the test, not by waiting. */
function manualClock() {
  let now = Date.UTC(2026, 0, 1);
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function clientFor(clock = manualClock()) {
  const client = createServiceTitanClient(
    {
      clientId: standIn.clientId,
      clientSecret: standIn.clientSecret,
      appKey: standIn.appKey,
      tenantId: standIn.tenantId,
      authUrl: standIn.url,
      apiUrl: standIn.url,
    },
    logger,
    { now: clock.now },
  );
  return { client, clock };
}

const tokenRequests = () => standIn.requests.filter((request) => request.path === "/connect/token");
const technicianRequests = () => standIn.requests.filter((request) => request.path.includes("/technicians"));

beforeEach(() => {
  standIn.requests.length = 0;
  standIn.technicians = TECHNICIANS;
  standIn.setTokenLifetime(900);
  standIn.failTechnicians(undefined);
  standIn.setFiltersActive(true);
});

describe("the ServiceTitan technician lookup", () => {
  it("reads every page, keeps the active technicians, falls back on names and reads numbers as E.164", async () => {
    const { client } = clientFor();
    const technicians = await client.technicians();
    expect(technicians).toEqual([
      { id: 101, name: "Ana Ruiz", email: "ana@example.com", phoneNumber: "+18035550101", unreadablePhone: null },
      { id: 102, name: "Ben Okafor", email: null, phoneNumber: "+18035550102", unreadablePhone: null },
      { id: 103, name: "Cy (nights)", email: "cy@example.com", phoneNumber: null, unreadablePhone: null },
      {
        id: 104,
        name: "Technician #104",
        email: "nameless@example.com",
        phoneNumber: null,
        unreadablePhone: "call the office",
      },
    ]);
    // Four active technicians in pages of two: page 2 says hasMore false.
    expect(technicianRequests().map((request) => new URL(request.path, standIn.url).searchParams.get("page"))).toEqual([
      "1",
      "2",
    ]);
    const first = technicianRequests()[0];
    expect(first?.headers["st-app-key"]).toBe(standIn.appKey);
    expect(new URL(first?.path ?? "", standIn.url).searchParams.get("active")).toBe("True");
    const tokenForm = new URLSearchParams(tokenRequests()[0]?.body);
    expect(Object.fromEntries(tokenForm)).toEqual({
      grant_type: "client_credentials",
      client_id: standIn.clientId,
      client_secret: standIn.clientSecret,
    });
  });

  it("leaves out inactive technicians even when the server lists them", async () => {
    standIn.setFiltersActive(false);
    const { client } = clientFor();
    const ids = (await client.technicians()).map((technician) => technician.id);
    expect(technicianRequests()).toHaveLength(3);
    expect(ids).toEqual([101, 102, 103, 104]);
  });

  it("reuses its token until shortly before expires_in runs out, then takes a new one", async () => {
    standIn.setTokenLifetime(900);
    const { client, clock } = clientFor();
    await client.technicians();
    clock.advance(TECHNICIAN_LIST_TTL_MS + 1);
    await client.technicians();
    expect(tokenRequests()).toHaveLength(1);
    expect(technicianRequests()).toHaveLength(4);

    // 900 s after the token was issued, less a margin: 15 minutes would be too late for a call to start.
    clock.advance(900_000 - TECHNICIAN_LIST_TTL_MS - 30_000);
    await client.technicians();
    expect(tokenRequests()).toHaveLength(2);
    const [firstToken, secondToken] = standIn.issuedTokens.slice(-2);
    const authorizations = technicianRequests().map((request) => request.headers.authorization);
    expect(authorizations.slice(0, 4).every((value) => value === `Bearer ${firstToken}`)).toBe(true);
    expect(authorizations.slice(4).every((value) => value === `Bearer ${secondToken}`)).toBe(true);
  });

  it("keeps the list for a few minutes without asking again", async () => {
    const { client, clock } = clientFor();
    await client.technicians();
    clock.advance(TECHNICIAN_LIST_TTL_MS - 1);
    await client.technicians();
    expect(technicianRequests()).toHaveLength(2);
  });

  it("takes one new token when a call answers 401", async () => {
    const { client, clock } = clientFor();
    await client.technicians();
    standIn.revokeTokens();
    clock.advance(TECHNICIAN_LIST_TTL_MS + 1);
    expect(await client.technicians()).toHaveLength(4);
    expect(tokenRequests()).toHaveLength(2);
    // The refused call, then both pages again with the new token.
    expect(technicianRequests()).toHaveLength(5);
  });

  it("uses the last good list when a lookup fails, and fails when it has none", async () => {
    const { client, clock } = clientFor();
    const good = await client.technicians();
    standIn.failTechnicians(503);
    clock.advance(TECHNICIAN_LIST_TTL_MS + 1);
    expect(await client.technicians()).toEqual(good);

    const { client: fresh } = clientFor();
    await expect(fresh.technicians()).rejects.toThrow(/HTTP 503/);
  });
});
