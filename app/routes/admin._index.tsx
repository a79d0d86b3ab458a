import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/services/auth.server";

export const meta: MetaFunction = () => [{ title: "Panel de administración · CotizaHub" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "admin");
  return { firstName: user.first_name };
}

export default function AdminDashboard() {
  const { firstName } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="page-title">Panel de administración</h1>
      <p className="mt-1 text-slate-700">Hola {firstName}.</p>
      <div className="mt-6 flex gap-3">
        <Link to="/admin/quotes" className="btn-primary">
          Cotizaciones
        </Link>
      </div>
    </div>
  );
}
