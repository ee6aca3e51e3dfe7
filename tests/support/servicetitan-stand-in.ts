import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export type StandInTechnician = {
  id: number;
  name?: string | null;
  fullName?: string | null;
  displayName?: string | null;
  email?: string | null;
  phoneNumber?: string | null;
  active: boolean;
};

export type StandInRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: string };

export type ServiceTitanStandIn = {
  /** http://127.0.0.1:PORT — both SERVICETITAN_AUTH_URL and SERVICETITAN_API_URL. */
  url: string;
  requests: StandInRequest[];
  /** Every access token handed out, in order. */
  issuedTokens: string[];
  clientId: string;
  clientSecret: string;
  appKey: string;
  tenantId: string;
  /** The technicians it serves, in pages of `pageSize` (it ignores the client's own pageSize, as a server may). */
  technicians: StandInTechnician[];
  /** expires_in of the next tokens. */
  setTokenLifetime: (seconds: number) => void;
  /** Answers the technicians endpoint with this status (e.g. 503) until set back to undefined. */
  failTechnicians: (status: number | undefined) => void;
  /** Off, it lists inactive technicians too whatever `active` asks, as a server that ignores the filter. */
  setFiltersActive: (filters: boolean) => void;
  /** Makes the current token invalid, as a revoked one: the next technicians call gets 401. */
  revokeTokens: () => void;
  close: () => Promise<void>;
};

/**
 * A loopback ServiceTitan: the OAuth client-credentials token endpoint (/connect/token) and the settings v2
 * technicians endpoint, paginated with page, pageSize and hasMore, which wants the ST-App-Key header and a
 * token it issued.
 */
export async function startServiceTitanStandIn(options: { pageSize?: number } = {}): Promise<ServiceTitanStandIn> {
  const pageSize = options.pageSize ?? 2;
  const state = {
    requests: [] as StandInRequest[],
    issuedTokens: [] as string[],
    validTokens: new Set<string>(),
    lifetime: 900,
    failing: undefined as number | undefined,
    filtersActive: true,
    technicians: [] as StandInTechnician[],
  };
  const credentials = {
    clientId: "cid.standin-client",
    clientSecret: "cs1.standin-secret-value",
    appKey: "ak1.standin-app-key",
    tenantId: "1234567",
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      state.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (req.method === "POST" && url.pathname === "/connect/token") {
        const form = new URLSearchParams(body);
        if (
          form.get("grant_type") !== "client_credentials" ||
          form.get("client_id") !== credentials.clientId ||
          form.get("client_secret") !== credentials.clientSecret
        ) {
          return json(400, { error: "invalid_client" });
        }
        const token = `standin-token-${state.issuedTokens.length + 1}-${Math.random().toString(36).slice(2)}`;
        state.issuedTokens.push(token);
        state.validTokens.add(token);
        return json(200, {
          access_token: token,
          expires_in: state.lifetime,
          token_type: "Bearer",
          scope: "tn.set.technicians:r",
        });
      }
      if (req.method === "GET" && url.pathname === `/settings/v2/tenant/${credentials.tenantId}/technicians`) {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
        if (!token || !state.validTokens.has(token)) return json(401, { title: "Unauthorized" });
        if (req.headers["st-app-key"] !== credentials.appKey) return json(403, { title: "Missing ST-App-Key" });
        if (state.failing) return json(state.failing, { title: "Unavailable" });
        const page = Number(url.searchParams.get("page") ?? "1");
        const activeOnly = state.filtersActive && url.searchParams.get("active")?.toLowerCase() === "true";
        const listed = activeOnly ? state.technicians.filter((technician) => technician.active) : state.technicians;
        const data = listed.slice((page - 1) * pageSize, page * pageSize);
        return json(200, { page, pageSize, hasMore: page * pageSize < listed.length, totalCount: null, data });
      }
      json(404, { title: "Not found" });
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests: state.requests,
    issuedTokens: state.issuedTokens,
    ...credentials,
    get technicians() {
      return state.technicians;
    },
    set technicians(value) {
      state.technicians = value;
    },
    setTokenLifetime: (seconds) => {
      state.lifetime = seconds;
    },
    failTechnicians: (status) => {
      state.failing = status;
    },
    setFiltersActive: (filters) => {
      state.filtersActive = filters;
    },
    revokeTokens: () => state.validTokens.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The environment that points the app at the stand-in. */
export function serviceTitanEnv(standIn: ServiceTitanStandIn): Record<string, string> {
  return {
    SERVICETITAN_CLIENT_ID: standIn.clientId,
    SERVICETITAN_CLIENT_SECRET: standIn.clientSecret,
    SERVICETITAN_APP_KEY: standIn.appKey,
    SERVICETITAN_TENANT_ID: standIn.tenantId,
    SERVICETITAN_AUTH_URL: standIn.url,
    SERVICETITAN_API_URL: standIn.url,
  };
}
