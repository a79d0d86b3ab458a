import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/services/auth.server";

export const meta: MetaFunction = () => [{ title: "Tablero · Socio · CotizaHub" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "partner");
  return { firstName: user.first_name };
}

export default function PartnerDashboard() {
  const { firstName } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="page-title">Tablero</h1>
      <p className="mt-1 text-slate-700">
        Hola {firstName}, aquí verás las solicitudes que te asignemos.
      </p>
      <div className="mt-6">
        <Link to="/partner/assignments" className="btn-primary">
          Ver solicitudes de cotización
        </Link>
      </div>
    </div>
  );
}
