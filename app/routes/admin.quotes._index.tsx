import { UnreadBadge } from "~/components/threads/UnreadBadge";
import { unreadCountsFor } from "~/models/thread.server";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { REQUESTS_PAGE_SIZE } from "~/domain/pagination";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { ProcessBanner } from "~/components/quotes/ProcessBanner";
import { FilterSelect } from "~/components/admin/SearchBar";
import { Deadline } from "~/components/Deadline";
import { StatusFilterForm } from "~/components/quotes/StatusFilterForm";
import { StatusBadge } from "~/components/StatusBadge";
import { EmptyState } from "~/components/ui/EmptyState";
import { ReferenceMatch } from "~/components/admin/ReferenceMatch";
import { requestReferenceIn } from "~/utils/search";
import { KeysetPagination } from "~/components/ui/KeysetPagination";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { formatMoney } from "~/domain/money";
import { adminStatusLabel, canRecordBuyerApproval } from "~/domain/quote-status";
import { DEADLINE_FILTER_LABELS, requestDeadlineNote } from "~/domain/deadline";
import {
  ADMIN_REQUEST_SORTS,
  adminRequestSortFrom,
  dateRangeFrom,
  RANGE_SUBJECTS,
} from "~/domain/list-filters";
import {
  ActiveFilters,
  DateRangeFields,
  rangeChip,
  SortSelect,
  sortChip,
} from "~/components/ui/ListFilters";
import {
  adminStatusCounts,
  deadlineFromUrl,
  listAdminRequests,
  requestByReference,
  statusFromUrl,
} from "~/models/quote-request.server";
import { searchFromUrl } from "~/utils/like";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { formatDate, matchCountOf } from "~/utils/format";
import { pageRequestFromUrl } from "~/utils/keyset";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Cotizaciones · Administración · CotizaHub",
    "Todas las solicitudes de cotización, con búsqueda, filtros por estado, plazo y fechas, y acciones.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const url = new URL(request.url);
  const q = searchFromUrl(url);
  const status = statusFromUrl(url);
  const deadline = deadlineFromUrl(url);
  const sort = adminRequestSortFrom(url.searchParams);
  const dates = dateRangeFrom(url.searchParams);
  const page = pageRequestFromUrl(url);
  const now = new Date();
  // The counters first: the list's total is one of them.
  const counts = await adminStatusCounts(db);
  const [list, settings, byNumber] = await Promise.all([
    listAdminRequests(db, { q, status, deadline, sort, page, now, range: dates.range, counts }),
    getSettings(db),
    requestByReference(db, requestReferenceIn(q)),
  ]);
  // One query for the page's ids, however many rows.
  const unread = await unreadCountsFor(
    db,
    admin,
    list.rows.map((row) => row.id),
  );
  const rows = list.rows.map((row) => ({
    ...row,
    unread: unread[row.id] ?? 0,
    deadlineNote: requestDeadlineNote(row.status, row.quote_deadline, now),
  }));
  return {
    counts,
    ...list,
    rows,
    byNumber,
    q,
    status,
    deadline,
    sort,
    dates,
    currency: settings.currency,
  };
}

export default function AdminQuotes() {
  const {
    counts,
    rows,
    total,
    totalCapped,
    pageInfo,
    byNumber,
    q,
    status,
    deadline,
    sort,
    dates,
    currency,
  } = useLoaderData<typeof loader>();
  const filtered = Boolean(q || status || deadline || dates.range.from || dates.range.to);
  return (
    <div className="space-y-6">
      <h1 className="page-title">Gestión de cotizaciones</h1>
      <ProcessBanner />
      <StatGrid>
        <StatCard label="Pendientes" value={counts.pending} hint="Esperan asignación" />
        {/* Not "Asignadas": the desk's home counts every assigned request under that name. */}
        <StatCard
          label="Esperan cotización"
          value={counts.assigned - counts.withQuotes}
          hint="Asignadas, sin ofertas aún"
        />
        <StatCard label="Con cotizaciones" value={counts.withQuotes} hint="Listas para comparar" />
        <StatCard label="Cotizadas" value={counts.quoted} hint="Listas para enviar" />
      </StatGrid>
      <StatusFilterForm
        q={q}
        status={status}
        searchLabel="Buscar por título, descripción o comprador"
        placeholder="Título, empresa o correo"
      >
        <FilterSelect
          label="Plazo"
          name="deadline"
          value={deadline}
          options={DEADLINE_FILTER_LABELS}
        />
        <DateRangeFields input={dates} subject={RANGE_SUBJECTS.requests} />
        <SortSelect sorts={ADMIN_REQUEST_SORTS} value={sort} />
      </StatusFilterForm>
      <ActiveFilters
        chips={[rangeChip(dates, RANGE_SUBJECTS.requests), sortChip(ADMIN_REQUEST_SORTS, sort)]}
      />
      <ReferenceMatch request={byNumber} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          {matchCountOf(total, totalCapped, "solicitud", "solicitudes")}
        </p>
        {/* A file, not a page: a plain link, so the browser downloads it. */}
        <a
          href={paths.admin.quotesCsv({
            q,
            status,
            deadline,
            desde: dates.range.from,
            hasta: dates.range.to,
            orden: sort === ADMIN_REQUEST_SORTS[0] ? null : sort,
          })}
          className="btn-secondary"
          download
        >
          Exportar CSV
          {filtered ? <span className="sr-only"> de las solicitudes filtradas</span> : null}
        </a>
      </div>
      {rows.length === 0 && total > 0 ? null : rows.length === 0 ? (
        <EmptyState title={filtered ? "No se encontraron resultados" : "Aún no hay solicitudes"} />
      ) : (
        <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="table-stack min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left">
              <tr>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Solicitud
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Comprador
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Estado
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Plazo
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Socios / ofertas
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Monto
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Acción
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {rows.map((row) => (
                <tr key={row.id}>
                  <td data-label="Solicitud" className="min-w-[11rem] px-3 py-3">
                    <Link
                      to={paths.admin.quote(row.id)}
                      className="font-semibold text-slate-900 hover:underline"
                    >
                      {row.title}
                    </Link>
                    <UnreadBadge count={row.unread} />
                    <p className="text-xs text-slate-600">
                      #{row.id} · {formatDate(row.created_at)}
                    </p>
                  </td>
                  <td data-label="Comprador" className="px-3 py-3">
                    {row.buyer_company || "Empresa no especificada"}
                    <p className="text-xs text-slate-600">
                      {row.buyer_first_name} {row.buyer_last_name}
                    </p>
                  </td>
                  <td data-label="Estado" className="px-3 py-3">
                    <StatusBadge
                      status={row.status}
                      label={adminStatusLabel(row.status, row.partner_quote_count)}
                    />
                  </td>
                  <td data-label="Plazo" className="px-3 py-3">
                    <Deadline at={row.quote_deadline} note={row.deadlineNote} />
                  </td>
                  <td data-label="Socios / ofertas" className="px-3 py-3">
                    {row.assignment_count} / {row.partner_quote_count}
                    {row.status === "assigned" && row.assignment_count === 0 ? (
                      <p
                        className="text-xs font-semibold text-amber-800"
                        data-testid="nadie-cotiza"
                      >
                        Nadie cotiza
                      </p>
                    ) : null}
                  </td>
                  <td data-label="Monto" className="whitespace-nowrap px-3 py-3">
                    {formatMoney(row.total_amount_cents, currency)}
                  </td>
                  <td data-label="Acción" className="px-3 py-3">
                    <RowAction row={row} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <KeysetPagination
        pageInfo={pageInfo}
        pageSize={REQUESTS_PAGE_SIZE}
        total={totalCapped ? null : total}
      />
    </div>
  );
}

function RowAction({
  row,
}: {
  row: {
    id: number;
    title: string;
    status: string;
    partner_quote_count: number;
    assignment_count: number;
  };
}) {
  const label = (text: string) => (
    <>
      {text}
      <span className="sr-only"> «{row.title}»</span>
    </>
  );
  // Pending, or a round every partner left: the next step is assigning.
  if (row.status === "pending" || (row.status === "assigned" && row.assignment_count === 0))
    return (
      <Link
        to={paths.admin.quote(row.id, "asignar-socios")}
        className="btn-primary whitespace-nowrap"
      >
        {label("Asignar socios")}
      </Link>
    );
  if (row.status === "assigned")
    return (
      <Link to={paths.admin.quote(row.id)} className="btn-secondary whitespace-nowrap">
        {label(row.partner_quote_count ? "Revisar cotizaciones" : "Ver detalles")}
      </Link>
    );
  // The buyer approves on its own page; recording an approval given elsewhere takes a note, on
  // the request's page (DECISIONS §9), never one click from a list.
  if (canRecordBuyerApproval(row.status as "quoted"))
    return (
      <Link to={paths.admin.quote(row.id)} className="btn-secondary whitespace-nowrap">
        {label("Ver cotización oficial")}
      </Link>
    );
  return (
    <Link to={paths.admin.quote(row.id)} className="btn-secondary whitespace-nowrap">
      {label("Ver detalles")}
    </Link>
  );
}
