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
  const now = options.now ?? Date.now;
  const authUrl = (settings.authUrl ?? "https://auth.servicetitan.io").replace(/\/+$/, "");
  const apiUrl = (settings.apiUrl ?? "https://api.servicetitan.io").replace(/\/+$/, "");
  let token: Token | undefined;
  let tokenRequest: Promise<Token> | undefined;
  let list: { technicians: Technician[]; freshUntil: number } | undefined;
  let listRequest: Promise<Technician[]> | undefined;

  async function requestToken(): Promise<Token> {
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

  async function currentToken(renew: boolean): Promise<Token> {
    if (!renew && token && now() < token.renewAt) return token;
    // Callers at the same moment share one token request.
    tokenRequest ??= requestToken().finally(() => {
      tokenRequest = undefined;
    });
    token = await tokenRequest;
    return token;
  }

  async function getJson<T>(url: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const { authorization } = await currentToken(attempt > 1);
      const response = await fetch(url, {
        headers: { authorization, "ST-App-Key": settings.appKey, accept: "application/json" },
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

  async function readAllTechnicians(logger: Logger): Promise<Technician[]> {
    const tenant = encodeURIComponent(settings.tenantId);
    const records: TechnicianRecord[] = [];
    for (let page = 1; ; page++) {
      const query = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE), active: "True" });
      const answer = await getJson<TechnicianPage>(`${apiUrl}/settings/v2/tenant/${tenant}/technicians?${query}`);
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

  async function refresh(logger: Logger): Promise<Technician[]> {
    try {
      const technicians = await readAllTechnicians(logger);
      list = { technicians, freshUntil: now() + TECHNICIAN_LIST_TTL_MS };
      return technicians;
    } catch (error) {
      const status = error instanceof ServiceTitanError ? error.status : undefined;
      if (list) {
        logger.error({ err: error, status }, "ServiceTitan technician lookup failed; using the last good list");
        return list.technicians;
      }
      logger.error({ err: error, status }, "ServiceTitan technician lookup failed and no earlier list is kept");
      throw error;
    }
  }

  return {
    technicians: async (logger = defaultLogger) => {
      if (list && now() < list.freshUntil) return list.technicians;
      listRequest ??= refresh(logger).finally(() => {
        listRequest = undefined;
      });
      return listRequest;
    },
  };
}
