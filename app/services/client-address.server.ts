/**
 * The client's address as the edge established it (edge.server.ts writes the header after deleting
 * any sent by the client). A module of its own so models can read it without loading the edge and
 * its stylesheet (scripts run under tsx, which cannot import CSS).
 */

export const CLIENT_ADDRESS_HEADER = "x-cotizahub-client-address";

/** The client address the edge established for this request. */
export function clientAddress(request: Request): string {
  return request.headers.get(CLIENT_ADDRESS_HEADER) ?? "desconocida";
}
