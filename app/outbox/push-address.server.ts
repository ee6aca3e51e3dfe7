import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { isIP } from "node:net";
import type { Config } from "~/services/config.server";
import {
  bareHostname,
  isPublicAddress,
  publicAddressLookup,
  reachesPublicAddressesOnly,
} from "~/services/public-address.server";

/** What decides where a push may go: the self-hosted push services an admin named (none by default). */
export type PushAddressSettings = Partial<Pick<Config, "PUSH_SERVICE_ALLOWED_HOSTS">>;

/** Why a push may not go to an address: not https, or not on the public internet. */
export type PushAddressProblem = "not https" | "not public";

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

/** A host the settings name: its name (or address) and its port, the scheme's usual one when none is given. */
function isAllowedHost(endpoint: URL, settings: PushAddressSettings): boolean {
  const port = endpoint.port ? Number(endpoint.port) : DEFAULT_PORTS[endpoint.protocol];
  return (settings.PUSH_SERVICE_ALLOWED_HOSTS ?? []).some(
    (host) => host.hostname === endpoint.hostname && (host.port ?? DEFAULT_PORTS[endpoint.protocol]) === port,
  );
}

/**
 * What is wrong with sending a push to this address, seen without asking DNS: a push service must be https at a
 * public address unless an admin named its host. A name is checked as the push connects (`pushAgentFor`).
 */
export function pushAddressProblem(endpoint: URL, settings: PushAddressSettings): PushAddressProblem | undefined {
  if (isAllowedHost(endpoint, settings)) return undefined;
  if (endpoint.protocol !== "https:") return "not https";
  const hostname = bareHostname(endpoint);
  if (isIP(hostname) !== 0 && !isPublicAddress(hostname)) return "not public";
  return undefined;
}

/**
 * As `pushAddressProblem`, with the name resolved now (or "not found" when it does not resolve): what a device's
 * subscription is checked with.
 */
export async function pushAddressProblemNow(
  endpoint: URL,
  settings: PushAddressSettings,
): Promise<PushAddressProblem | "not found" | undefined> {
  const problem = pushAddressProblem(endpoint, settings);
  if (problem || isAllowedHost(endpoint, settings)) return problem;
  try {
    return (await reachesPublicAddressesOnly(bareHostname(endpoint))) ? undefined : "not public";
  } catch {
    return "not found";
  }
}

/**
 * Kept-alive connections to the push services, their own: each connection's addresses are checked as it is
 * made (a name resolving anywhere but the public internet fails to connect), and no connection opened for
 * another purpose (a webhook inside the network) is ever reused for a push.
 */
const PUBLIC_PUSH_AGENT = new HttpsAgent({ keepAlive: true, lookup: publicAddressLookup });
const ALLOWED_PUSH_AGENTS = {
  "http:": new HttpAgent({ keepAlive: true }),
  "https:": new HttpsAgent({ keepAlive: true }),
};

/** The agent a push to this address goes through (refused first on `pushAddressProblem`). */
export function pushAgentFor(endpoint: URL, settings: PushAddressSettings): HttpAgent {
  if (isAllowedHost(endpoint, settings))
    return ALLOWED_PUSH_AGENTS[endpoint.protocol === "https:" ? "https:" : "http:"];
  return PUBLIC_PUSH_AGENT;
}
