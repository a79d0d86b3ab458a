import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SearchBar } from "~/components/admin/SearchBar";
import { EmptyState } from "~/components/ui/EmptyState";
import { Pagination, pageFromUrl } from "~/components/ui/Pagination";
import { StatCard } from "~/components/ui/StatCard";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import { contactCounters, listContactSubmissions } from "~/models/contact-admin.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { formatDateTime } from "~/utils/format";
import { searchFromUrl } from "~/utils/like";
import { pageMeta } from "~/utils/meta";
import { paths } from "~/utils/paths";

export const meta: MetaFunction = () =>
  pageMeta(
    "Contactos · Administración · CotizaHub",
    "Mensajes recibidos por el formulario de contacto, con búsqueda por nombre, correo o asunto.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const url = new URL(request.url);
  const q = searchFromUrl(url);
  const page = pageFromUrl(url);
  const [{ submissions, total }, counters] = await Promise.all([
    listContactSubmissions(db, { q, page }),
    contactCounters(db),
  ]);
  return { submissions, total, counters, q, page };
}

export default function AdminContacts() {
  const { submissions, total, counters, q, page } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="page-title">Contactos</h1>
      <p className="mt-1 text-slate-700">
        Mensajes del formulario de contacto. Responde en menos de 24 horas.
      </p>
      <div className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-3">
        <StatCard label="Total" value={counters.total} />
        <StatCard label="Hoy" value={counters.today} />
        <StatCard label="Esta semana" value={counters.week} hint="Desde el lunes (UTC)" />
      </div>
      <SearchBar q={q} label="Buscar por nombre, correo, empresa o mensaje" />
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          {q
            ? `${total} ${total === 1 ? "mensaje encontrado" : "mensajes encontrados"}`
            : `${total} ${total === 1 ? "mensaje" : "mensajes"}`}
        </p>
        {/* A file, not a page: a plain link, so the browser downloads it. */}
        <a href={paths.admin.contactsCsv({ q })} className="btn-secondary" download>
          Exportar CSV
          {q ? <span className="sr-only"> de los mensajes encontrados</span> : null}
        </a>
      </div>
      {submissions.length === 0 ? (
        <div className="mt-4">
          <EmptyState
            title={q ? "No se encontraron mensajes" : "Aún no hay mensajes de contacto"}
          />
        </div>
      ) : (
        <ul className="mt-4 space-y-4">
          {submissions.map((s) => (
            <li key={s.id} className="card" data-testid={`contact-${s.id}`}>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="font-semibold text-slate-900">
                  {s.name}
                  {s.company ? (
                    <span className="font-normal text-slate-700"> · {s.company}</span>
                  ) : null}
                </h2>
                <p className="text-sm text-slate-600">{formatDateTime(s.created_at)}</p>
              </div>
              <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                <a href={`mailto:${s.email}`} className="btn-link break-all">
                  {s.email}
                </a>
                {s.phone ? (
                  <a href={`tel:${s.phone.replace(/[^\d+]/g, "")}`} className="btn-link">
                    {s.phone}
                  </a>
                ) : null}
              </p>
              <p className="mt-3 whitespace-pre-line wrap-anywhere text-slate-800">{s.message}</p>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageSize={ADMIN_PAGE_SIZE} total={total} />
    </div>
  );
}
