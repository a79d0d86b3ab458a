import { Link } from "@remix-run/react";

/** SPEC §8: what a partner sees for a request that does not exist or is not assigned to them. */
export function RequestNotFound() {
  return (
    <div className="card mx-auto max-w-xl text-center">
      <h1 className="text-xl font-bold text-slate-900">Solicitud no encontrada</h1>
      <p className="mt-2 text-slate-700">
        La solicitud que buscas no existe o no tienes permiso para verla.
      </p>
      <Link to="/partner/assignments" className="btn-primary mt-6">
        Volver a mis asignaciones
      </Link>
    </div>
  );
}

/** For a route's ErrorBoundary: anything but a 404 is a loading failure (SPEC §8). */
export function RequestLoadError() {
  return (
    <div className="card mx-auto max-w-xl text-center">
      <h1 className="text-xl font-bold text-slate-900">Error</h1>
      <p className="mt-2 text-slate-700">No se pudieron cargar los detalles de la solicitud</p>
      <Link to="/partner/assignments" className="btn-primary mt-6">
        Volver a mis asignaciones
      </Link>
    </div>
  );
}
