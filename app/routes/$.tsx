/** Any unknown path: a real 404 status rendered by the root error boundary («¡Ups! Página no encontrada»). */
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

/** A form sent to an unknown path is not found either (not a 405 naming the route). */
export function action() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
