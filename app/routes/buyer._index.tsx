import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/services/auth.server";

export const meta: MetaFunction = () => [{ title: "Tablero · Comprador · CotizaHub" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "buyer");
  return { firstName: user.first_name };
}

export default function BuyerDashboard() {
  const { firstName } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="page-title">Tablero</h1>
      <p className="mt-1 text-slate-700">
        Hola {firstName}, aquí tienes el resumen de tus cotizaciones.
      </p>
      <div className="mt-6">
        <Link to="/buyer/quotes/new" className="btn-primary">
          Nueva cotización
        </Link>
      </div>
    </div>
  );
}
