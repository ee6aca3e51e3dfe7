import type { Logger } from "pino";
import type { Config } from "~/services/config.server";
import type { Database } from "~/services/db/database.server";
import { createServiceTitanClient, type ServiceTitanClient } from "./servicetitan-client.server";
import { directoryTechnicians } from "./staff-directory.server";
import type { Technician } from "./technician-record.server";

type SourceContext = { config: Config; db: Database; logger: Logger };

/** Where technicians come from: ServiceTitan when its credentials are set, else the staff directory. */
export function usesServiceTitan(config: Config): boolean {
  return Boolean(config.SERVICETITAN_CLIENT_ID);
}

// One client per configuration, that is per running app: its token and list caches live as long as the app.
const clients = new WeakMap<Config, ServiceTitanClient>();

function serviceTitanClientFor(config: Config, logger: Logger): ServiceTitanClient {
  let client = clients.get(config);
  if (!client) {
    client = createServiceTitanClient(
      {
        clientId: config.SERVICETITAN_CLIENT_ID ?? "",
        clientSecret: config.SERVICETITAN_CLIENT_SECRET ?? "",
        appKey: config.SERVICETITAN_APP_KEY ?? "",
        tenantId: config.SERVICETITAN_TENANT_ID ?? "",
        authUrl: config.SERVICETITAN_AUTH_URL,
        apiUrl: config.SERVICETITAN_API_URL,
      },
      logger,
    );
    clients.set(config, client);
  }
  return client;
}

/** The technicians a message may go to, from whichever source is configured. */
export function listTechnicians(context: SourceContext): Promise<Technician[]> {
  if (usesServiceTitan(context.config)) {
    return serviceTitanClientFor(context.config, context.logger).technicians(context.logger);
  }
  return directoryTechnicians(context.db);
}
