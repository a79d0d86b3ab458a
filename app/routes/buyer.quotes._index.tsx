import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { UnreadBadge } from "~/components/threads/UnreadBadge";
import { unreadCountsFor } from "~/models/thread.server";
import { REQUESTS_PAGE_SIZE } from "~/domain/pagination";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { StatusFilterForm } from "~/components/quotes/StatusFilterForm";
import { StatusBadge } from "~/components/StatusBadge";
import { Badge } from "~/components/ui/Badge";
import { EmptyState } from "~/components/ui/EmptyState";
import { KeysetPagination } from "~/components/ui/KeysetPagination";
import { StatCard } from "~/components/ui/StatCard";
import { formatMoney } from "~/domain/money";
import {
  BUYER_REQUEST_SORTS,
  dateRangeFrom,
  hasRange,
  RANGE_SUBJECTS,
  sortFrom,
} from "~/domain/list-filters";
import {
  ActiveFilters,
  DateRangeFields,
  rangeChip,
  SortSelect,
  sortChip,
} from "~/components/ui/ListFilters";
import { buyerStatusCounts, listBuyerRequests, statusFromUrl } from "~/models/quote-request.server";
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
    "Mis Cotizaciones · CotizaHub",
    "Tus solicitudes de cotización y su estado, con búsqueda, filtros por estado y fechas, y orden.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const url = new URL(request.url);
  const q = searchFromUrl(url);
  const status = statusFromUrl(url);
  const dates = dateRangeFrom(url.searchParams);
  const sort = sortFrom(url.searchParams.get("orden"), BUYER_REQUEST_SORTS);
  const page = pageRequestFromUrl(url);
  // The counters first: the list's total is one of them.
  const counts = await buyerStatusCounts(db, user.id);
  const [list, settings] = await Promise.all([
    listBuyerRequests(db, { buyerId: user.id, q, status, page, range: dates.range, sort, counts }),
    getSettings(db),
  ]);
  // One query for the page's ids, however many rows.
  const unread = await unreadCountsFor(
    db,
    user,
    list.rows.map((row) => row.id),
  );
  return { counts, ...list, unread, q, status, dates, sort, currency: settings.currency };
}

export default function BuyerQuotes() {
  const { counts, rows, unread, total, totalCapped, pageInfo, q, status, dates, sort, currency } =
    useLoaderData<typeof loader>();
  const filtered = Boolean(q || status || hasRange(dates.range));
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="page-title">Mis Cotizaciones</h1>
        <Link to={paths.buyer.newQuote()} className="btn-primary">
          Nueva cotización
        </Link>
      </div>

      <div className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
        <StatCard label="Total" value={counts.total} />
        <StatCard
          label="Pendientes"
          value={counts.pending + counts.assigned}
          hint="Pendientes o asignadas"
        />
        <StatCard label="Cotizadas" value={counts.quoted} />
        <StatCard label="Aprobadas" value={counts.approved} />
        <StatCard label="Pagadas" value={counts.paid} />
      </div>

      <StatusFilterForm
        q={q}
        status={status}
        searchLabel="Buscar por título o descripción"
        placeholder="Ej.: válvulas, flota, uniformes"
      >
        <DateRangeFields input={dates} subject={RANGE_SUBJECTS.requests} />
        <SortSelect sorts={BUYER_REQUEST_SORTS} value={sort} />
      </StatusFilterForm>
      <ActiveFilters
        chips={[rangeChip(dates, RANGE_SUBJECTS.requests), sortChip(BUYER_REQUEST_SORTS, sort)]}
      />

      <p className="text-sm text-slate-700" aria-live="polite">
        {filtered
          ? matchCountOf(total, totalCapped, "solicitud encontrada", "solicitudes encontradas")
          : matchCountOf(total, totalCapped, "solicitud", "solicitudes")}
      </p>

      {rows.length === 0 && total > 0 ? null : rows.length === 0 ? (
        <EmptyState title={filtered ? "No se encontraron resultados" : "Aún no tienes solicitudes"}>
          {filtered ? (
            <Link to={paths.buyer.quotes()} className="text-brand-700 hover:underline">
              Quitar filtros
            </Link>
          ) : (
            <Link to={paths.buyer.newQuote()} className="btn-primary mt-2">
              Crear mi primera solicitud
            </Link>
          )}
        </EmptyState>
      ) : (
        <ul className="space-y-3">
          {rows.map((row) => (
            <li
              key={row.id}
              className="card flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <div className="flex flex-wrap items-center gap-2">
                  <Link
                    to={paths.buyer.quote(row.id)}
                    className="font-semibold text-slate-900 hover:underline"
                  >
                    {row.title}
                  </Link>
                  <StatusBadge status={row.status} />
                  <UnreadBadge count={unread[row.id]} />
                </div>
                {row.description ? (
                  <p className="mt-1 line-clamp-2 text-sm text-slate-700">{row.description}</p>
                ) : null}
                <p className="mt-1 text-xs text-slate-600">
                  Creada el {formatDate(row.created_at)}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-3 sm:shrink-0">
                {row.total_amount_cents !== null ? (
                  <span className="font-semibold">
                    {formatMoney(row.total_amount_cents, currency)}
                  </span>
                ) : null}
                <Link to={paths.buyer.quote(row.id)} className="btn-secondary">
                  Ver detalles<span className="sr-only"> de {row.title}</span>
                </Link>
                {row.status === "approved" && row.proof_in_review_since ? (
                  <Badge tone="yellow">Comprobante en revisión</Badge>
                ) : row.status === "approved" ? (
                  <Link to={paths.buyer.newPayment(row.id)} className="btn-primary">
                    Pagar<span className="sr-only"> {row.title}</span>
                  </Link>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <KeysetPagination
        pageInfo={pageInfo}
        pageSize={REQUESTS_PAGE_SIZE}
        total={totalCapped ? null : total}
      />
    </div>
  );
}
