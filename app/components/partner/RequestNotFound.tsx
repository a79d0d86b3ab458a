import { Link } from "~/components/ui/Link";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { paths } from "~/utils/paths";

function Panel({ title, message }: { title: string; message: string }) {
  return (
    <div className="card mx-auto max-w-xl text-center">
      <h1 className="text-xl font-bold text-slate-900">{title}</h1>
      <p className="mt-2 text-slate-700">{message}</p>
      <Link to={paths.partner.assignments()} className="btn-primary mt-6">
        Volver a mis asignaciones
      </Link>
    </div>
  );
}

/**
 * The boundary of a partner's request pages. SPEC §8: a request that does not exist or is not
 * assigned to them is "Solicitud no encontrada"; anything else is a loading failure.
 */
export function PartnerRequestErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <Panel
            title="Solicitud no encontrada"
            message="La solicitud que buscas no existe o no tienes permiso para verla."
          />
        ),
      }}
      unexpectedErrorHandler={() => (
        <Panel title="Error" message="No se pudieron cargar los detalles de la solicitud" />
      )}
    />
  );
}
