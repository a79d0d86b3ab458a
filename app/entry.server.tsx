import type {
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  HandleErrorFunction,
} from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { JOB_HANDLERS } from "./models/scheduled-jobs.server";
import { startBackgroundWork } from "./services/background.server";
import { paintBeforeModules } from "./services/page-scripts.server";
import { createNonce, setSecurityHeaders } from "./services/security-headers.server";
import { NonceContext } from "./utils/nonce";

export const streamTimeout = 5_000;

startBackgroundWork(JOB_HANDLERS);

/**
 * Remix's single-fetch data as `StreamTransfer` reads it while rendering, read to its end first:
 * nothing on a page is deferred, so the data is complete before the page renders, and with every
 * chunk in `StreamTransfer`'s cache (keyed by its position) nothing suspends.
 */
type ReadChunk = Promise<void> & { result: { done: boolean; value: string } };

async function readHandoffData(context: EntryContext): Promise<void> {
  const stream = context.serverHandoffStream;
  if (!stream) return;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const chunks: Record<number, ReadChunk> = {};
  for (let position = 0; ; position++) {
    const { done, value } = await reader.read();
    const result = { done, value: decoder.decode(value, { stream: true }) };
    chunks[position] = Object.assign(Promise.resolve(), { result });
    if (done) break;
  }
  reader.releaseLock();
  (context.renderMeta as { streamCache?: typeof chunks }).streamCache = chunks;
}

/**
 * The page is rendered to one string: its data is read first (above), so nothing is left to
 * stream, and React's string renderer costs a fraction of its streaming one, which encodes each
 * of a page's ~10,000 small pieces of markup to bytes on its own (3 ms on a 25-row list).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = createNonce();
  setSecurityHeaders(responseHeaders, nonce);
  await readHandoffData(remixContext);
  // The loaders and the render would otherwise hold the event loop as one block (the database
  // answers synchronously): a timer, unlike setImmediate, lets other requests' timers and sockets
  // have their turn in between. Analytics viewed alone: event-loop delay p99 19–20 → 15–18 ms,
  // for at most 1 ms of waiting when the server is idle.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const html = renderToString(
    <NonceContext.Provider value={nonce}>
      <RemixServer
        context={remixContext}
        url={request.url}
        abortDelay={streamTimeout}
        nonce={nonce}
      />
    </NonceContext.Provider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // Sent as bytes: encoded once here, and only the scripts at its end decoded again to rewrite.
  const page = paintBeforeModules(Buffer.from(`<!DOCTYPE html>${html}`, "utf8"));
  return new Response(page, {
    headers: responseHeaders,
    status: responseStatusCode,
  });
}

/** Refusals of bad requests (400–499) are answers, not server errors: only the rest is logged. */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
};

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  setSecurityHeaders(response.headers);
  return response;
};

/** The request edge, exported through the build so that server.js can mount it before Remix. */
export * as edge from "./services/edge.server";
