import pg from "pg";
import type { Logger } from "pino";
import type { AppLoadContext } from "react-router";
import { setPublishedCompany } from "~/content/published-company";
import { defaultSiteContent, type SiteContent } from "~/content/site-content";
import type { Database } from "../db/database.server";
import { type PublishedSiteContent, publishedSiteContent, SITE_CONTENT_CHANNEL } from "./site-content-store.server";

/*
 * The published content, held in memory by each process: every page and email reads it without a query. Each
 * instance of a cluster listens for publishes (site-content-store.server.ts NOTIFYs them) and reads the new
 * version at once; after a lost connection it reads it again, in case it missed one meanwhile.
 */

/*
 * Kept on globalThis: the server's own modules (the outbox, which sends the emails) and the built app's copy of
 * this module (the pages and forms) must read the one version this process follows.
 */
const PUBLISHED = Symbol.for("tce.publishedSiteContent");
const holder = globalThis as { [PUBLISHED]?: PublishedSiteContent };

/** The published content of this process (today's defaults until followPublishedSiteContent read it). */
export function currentSiteContent(): PublishedSiteContent {
  return holder[PUBLISHED] ?? { versionId: null, content: defaultSiteContent };
}

function setPublished(content: PublishedSiteContent): void {
  holder[PUBLISHED] = content;
  setPublishedCompany(content.content.company);
}

/**
 * The content a page renders: the request's own (a preview's, or the published one the server put in its
 * context), or the defaults where there is no server (the build's prerender).
 */
export function siteContentOf(context: AppLoadContext): SiteContent {
  return context.siteContent ?? defaultSiteContent;
}

const RECONNECT_AFTER_MS = 1_000;

/**
 * Reads the published content, then follows every publish: `onPublished` runs with each new version (in turn,
 * never two at once). Resolves once the first read is done; `stop` ends the listening.
 */
export async function followPublishedSiteContent(
  db: Database,
  logger: Logger,
  onPublished: (content: PublishedSiteContent) => Promise<void>,
): Promise<{ stop: () => Promise<void> }> {
  let stopped = false;
  let client: pg.Client | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let refreshing = Promise.resolve();

  const refresh = () => {
    refreshing = refreshing.then(async () => {
      try {
        const newest = await publishedSiteContent(db);
        if (newest.versionId === currentSiteContent().versionId) return;
        setPublished(newest);
        await onPublished(newest);
      } catch (error) {
        logger.error({ err: error }, "could not read the published site content");
      }
    });
    return refreshing;
  };

  const listen = async () => {
    const listener = new pg.Client({
      ...db.$client.options,
      application_name: `${db.$client.options.application_name} listener`,
    });
    client = listener;
    const reconnect = (error?: Error) => {
      if (stopped || client !== listener) return;
      client = undefined;
      logger.warn({ err: error }, "lost the connection that hears of site content publishes; connecting again");
      listener.end().catch(() => undefined);
      reconnectTimer = setTimeout(() => void listen(), RECONNECT_AFTER_MS);
    };
    listener.on("error", reconnect);
    listener.on("end", () => reconnect());
    listener.on("notification", () => void refresh());
    try {
      await listener.connect();
      await listener.query(`LISTEN ${SITE_CONTENT_CHANNEL}`);
    } catch (error) {
      reconnect(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    await refresh();
  };

  await listen();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(reconnectTimer);
      await refreshing;
      await client?.end().catch(() => undefined);
    },
  };
}
