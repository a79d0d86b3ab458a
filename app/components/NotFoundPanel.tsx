import { Link } from "~/components/ui/Link";
import { paths } from "~/utils/paths";

/** SPEC's not-found state for a record that does not exist or is not the viewer's. */
export function NotFoundPanel({
  title,
  message = "No existe o no tienes permiso para verla.",
  backTo,
  backLabel,
}: {
  title: string;
  message?: string;
  backTo: string;
  backLabel: string;
}) {
  return (
    <div className="card mx-auto max-w-lg text-center">
      <h1 className="text-xl font-bold text-slate-900">{title}</h1>
      <p className="mt-2 text-slate-700">{message}</p>
      <Link to={backTo} className="btn-primary mt-6">
        {backLabel}
      </Link>
    </div>
  );
}

/** A buyer's request that does not exist or is not theirs. */
export function BuyerQuoteNotFound() {
  return (
    <NotFoundPanel
      title="Cotización no encontrada"
      backTo={paths.buyer.quotes()}
      backLabel="Volver a Mis Cotizaciones"
    />
  );
}

export function AdminQuoteNotFound() {
  return (
    <NotFoundPanel
      title="Cotización no encontrada"
      backTo={paths.admin.quotes()}
      backLabel="Volver a Cotizaciones"
    />
  );
}
