import type { Logger } from "pino";
import { type Technician, technicianFrom } from "./technician-record.server";

export type ServiceTitanSettings = {
  clientId: string;
  clientSecret: string;
  appKey: string;
  tenantId: string;
  /** https://auth.servicetitan.io unless set (the integration environment has its own). */
  authUrl?: string;
  /** https://api.servicetitan.io unless set. */
  apiUrl?: string;
};

/** `logger` is the asking request's, so a failed lookup is logged with the request it failed for. */
export type ServiceTitanClient = { technicians: (logger?: Logger) => Promise<Technician[]> };

/** How long the technician list is kept before it is read again. */
export const TECHNICIAN_LIST_TTL_MS = 5 * 60_000;
/** A token is renewed this long before its expires_in runs out, so no call goes out with one about to lapse. */
const TOKEN_RENEWAL_MARGIN_MS = 60_000;
const PAGE_SIZE = 200;
const REQUEST_TIMEOUT_MS = 15_000;

/** The fields of ServiceTitan's technician record (settings v2) that this tool reads. */
type TechnicianRecord = {
  id: number;
  name?: string | null;
  fullName?: string | null;
  displayName?: string | null;
  email?: string | null;
  phoneNumber?: string | null;
  mobileNumber?: string | null;
  active?: boolean;
};

type TechnicianPage = { page?: number; hasMore?: boolean; data?: TechnicianRecord[] };

type Token = { authorization: string; renewAt: number };

class ServiceTitanError extends Error {
  override name = "ServiceTitanError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Spec §3: the name, else the full name, else the display name, else `Technician #id`. */
export function technicianName(record: TechnicianRecord): string {
  for (const candidate of [record.name, record.fullName, record.displayName]) {
    if (candidate?.trim()) return candidate.trim();
  }
  return `Technician #${record.id}`;
}

/** What a client keeps between calls: its settings, its token, its list, and the requests under way for them. */
type ClientState = {
  settings: ServiceTitanSettings;
  now: () => number;
  authUrl: string;
  apiUrl: string;
  token?: Token;
  tokenRequest?: Promise<Token>;
  list?: { technicians: Technician[]; freshUntil: number };
  listRequest?: Promise<Technician[]>;
};

/**
 * Reads the active technicians from ServiceTitan, on the server only. It takes an OAuth client-credentials
 * token and keeps it until shortly before it expires (a 401 forces one new token), reads every page of the
 * technicians endpoint, and keeps the list for a few minutes. When a lookup fails, it is logged and the last
 * good list is used; with none, the failure is the caller's.
 */
export function createServiceTitanClient(
  settings: ServiceTitanSettings,
  defaultLogger: Logger,
  options: { now?: () => number } = {},
): ServiceTitanClient {
  const client: ClientState = {
    settings,
    now: options.now ?? Date.now,
    authUrl: (settings.authUrl ?? "https://auth.servicetitan.io").replace(/\/+$/, ""),
    apiUrl: (settings.apiUrl ?? "https://api.servicetitan.io").replace(/\/+$/, ""),
  };
  return {
    technicians: async (logger = defaultLogger) => {
      if (client.list && client.now() < client.list.freshUntil) return client.list.technicians;
      client.listRequest ??= refresh(client, logger).finally(() => {
        client.listRequest = undefined;
      });
      return client.listRequest;
    },
  };
}

async function requestToken({ settings, authUrl, now }: ClientState): Promise<Token> {
  const response = await fetch(`${authUrl}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
    }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new ServiceTitanError(`the token request was refused (HTTP ${response.status})`, response.status);
  }
  const answer = (await response.json()) as { access_token?: string; expires_in?: number; token_type?: string };
  if (!answer.access_token) throw new ServiceTitanError("the token answer had no access_token");
  const lifetimeMs = (answer.expires_in ?? 900) * 1000;
  return {
    authorization: `${answer.token_type ?? "Bearer"} ${answer.access_token}`,
    renewAt: now() + Math.max(lifetimeMs - TOKEN_RENEWAL_MARGIN_MS, lifetimeMs / 2),
  };
}

async function currentToken(client: ClientState, renew: boolean): Promise<Token> {
  if (!renew && client.token && client.now() < client.token.renewAt) return client.token;
  // Callers at the same moment share one token request.
  client.tokenRequest ??= requestToken(client).finally(() => {
    client.tokenRequest = undefined;
  });
  client.token = await client.tokenRequest;
  return client.token;
}

async function getJson<T>(client: ClientState, url: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const { authorization } = await currentToken(client, attempt > 1);
    const response = await fetch(url, {
      headers: { authorization, "ST-App-Key": client.settings.appKey, accept: "application/json" },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    // A token revoked or expired early: one new token, then the answer stands.
    if (response.status === 401 && attempt === 1) {
      await response.body?.cancel();
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ServiceTitanError(`the technicians request failed (HTTP ${response.status})`, response.status);
    }
    return (await response.json()) as T;
  }
}

async function readAllTechnicians(client: ClientState, logger: Logger): Promise<Technician[]> {
  const tenant = encodeURIComponent(client.settings.tenantId);
  const records: TechnicianRecord[] = [];
  for (let page = 1; ; page++) {
    const query = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE), active: "True" });
    const url = `${client.apiUrl}/settings/v2/tenant/${tenant}/technicians?${query}`;
    const answer = await getJson<TechnicianPage>(client, url);
    records.push(...(answer.data ?? []));
    if (!answer.hasMore) break;
  }
  const technicians = records
    .filter((record) => record.active !== false)
    .map((record) =>
      technicianFrom({
        id: record.id,
        name: technicianName(record),
        email: record.email,
        phone: record.mobileNumber || record.phoneNumber,
      }),
    );
  for (const technician of technicians) {
    if (technician.unreadablePhone !== null) {
      logger.warn(
        { technicianId: technician.id },
        "a ServiceTitan technician's phone number is not a number we can text",
      );
    }
  }
  return technicians.sort((a, b) => a.name.localeCompare(b.name));
}

/** Reads the list again and keeps it; when that fails, the last good list, or the failure when there is none. */
async function refresh(client: ClientState, logger: Logger): Promise<Technician[]> {
  try {
    const technicians = await readAllTechnicians(client, logger);
    client.list = { technicians, freshUntil: client.now() + TECHNICIAN_LIST_TTL_MS };
    return technicians;
  } catch (error) {
    const status = error instanceof ServiceTitanError ? error.status : undefined;
    if (client.list) {
      logger.error({ err: error, status }, "ServiceTitan technician lookup failed; using the last good list");
      return client.list.technicians;
    }
    logger.error({ err: error, status }, "ServiceTitan technician lookup failed and no earlier list is kept");
    throw error;
  }
}
