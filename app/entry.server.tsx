import { createHash } from "node:crypto";
import { PassThrough } from "node:stream";
import publicPageScript from "virtual:inline-script/app/public-page-script.ts";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { type InlinedSources, InlinedSourcesContext } from "./components/inlined-sources";
import { NonceContext } from "./components/nonce";
import { inlineStylesheets } from "./inline-stylesheet";

export const streamTimeout = 5_000;

/**
 * The CSP source of every inline stylesheet a rendered page carries, read by the Express server from the build
 * (server/content-security-policy.ts): the stylesheet is fixed at build time, so its hash is too.
 */
export const inlineStyleSources = Object.values(inlineStylesheets).map(
  (stylesheet) => `'sha256-${createHash("sha256").update(stylesheet).digest("base64")}'`,
);

const inlinedSources: InlinedSources = { stylesheets: inlineStylesheets, publicPageScript };

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, {
      status: responseStatusCode,
      headers: responseHeaders,
    });
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");

    // Ensure requests from bots and SPA Mode renders wait for all content to load before responding
    // https://react.dev/reference/react-dom/server/renderToPipeableStream#waiting-for-all-content-to-load-for-crawlers-and-static-generation
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    // Abort the rendering stream after the `streamTimeout` so it has time to
    // flush down the rejected boundaries
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    // Prerendering has no load context of ours; those pages' scripts are allowed by hash instead.
    const nonce = (loadContext as Partial<AppLoadContext> | undefined)?.cspNonce;
    const { pipe, abort } = renderToPipeableStream(
      <InlinedSourcesContext value={inlinedSources}>
        <NonceContext value={nonce}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </NonceContext>
      </InlinedSourcesContext>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              // Clear the timeout to prevent retaining the closure and memory leak
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);

          responseHeaders.set("Content-Type", "text/html");

          pipe(body);

          resolve(
            new Response(stream, {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Log streaming rendering errors from inside the shell.  Don't log
          // errors encountered during initial shell rendering since they'll
          // reject and get logged in handleDocumentRequest.
          if (shellRendered) {
            logRenderError(error);
          }
        },
      },
    );
  });
}

function logRenderError(error: unknown, context?: AppLoadContext) {
  if (context?.logger) context.logger.error({ err: error }, "render failed");
  else console.error(error);
}

/** Errors thrown by loaders, actions and rendering. Requests for pages that do not exist are not errors. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status === 404) return;
  logRenderError(error, context as AppLoadContext | undefined);
};
