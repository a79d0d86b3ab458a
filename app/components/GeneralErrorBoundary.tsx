import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";

type ErrorResponse = { status: number; statusText: string; data: unknown };

/**
 * The one error boundary (after epic-stack's): a route says what it shows for a status (usually the
 * SPEC's not-found panel for a 404) and, optionally, for anything unexpected. What it does not
 * handle is thrown on to the parent boundary, up to the root's 404 / "Algo salió mal" page.
 */
export function GeneralErrorBoundary({
  statusHandlers = {},
  unexpectedErrorHandler,
}: {
  statusHandlers?: Partial<Record<number, (error: ErrorResponse) => ReactNode>>;
  unexpectedErrorHandler?: (error: unknown) => ReactNode;
}) {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const handler = statusHandlers[error.status];
    if (handler) return <>{handler(error)}</>;
  }
  if (unexpectedErrorHandler) return <>{unexpectedErrorHandler(error)}</>;
  throw error;
}
