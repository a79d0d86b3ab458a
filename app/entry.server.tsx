import { Writable } from "node:stream";
import type {
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  HandleErrorFunction,
} from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { JOB_HANDLERS } from "./models/scheduled-jobs.server";
import { startBackgroundWork } from "./services/background.server";
import { paintBeforeModules } from "./services/page-scripts.server";
import { createNonce, setSecurityHeaders } from "./services/security-headers.server";
import { NonceContext } from "./utils/nonce";

export const streamTimeout = 5_000;

startBackgroundWork(JOB_HANDLERS);

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = createNonce();
  setSecurityHeaders(responseHeaders, nonce);

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer
          context={remixContext}
          url={request.url}
          abortDelay={streamTimeout}
          nonce={nonce}
        />
      </NonceContext.Provider>,
      {
        nonce,
        // The whole page is rendered before it is sent (nothing on it is deferred): one write
        // instead of React's many small chunks, and the modules wait for the first paint.
        onAllReady() {
          shellRendered = true;
          const chunks: Buffer[] = [];
          const page = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              clearTimeout(abortTimer);
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              const html = paintBeforeModules(Buffer.concat(chunks));
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
              done();
            },
          });
          pipe(page);
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    // Cleared once the page is out: a pending timer kept each rendered page's tree alive for 6 s.
    const abortTimer = setTimeout(abort, streamTimeout + 1_000);
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
