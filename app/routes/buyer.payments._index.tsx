import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PAYMENTS_PAGE_SIZE } from "~/domain/pagination";
import { Form, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { PaymentItem } from "~/components/quotes/PaymentItem";
import { EmptyState } from "~/components/ui/EmptyState";
import { KeysetPagination } from "~/components/ui/KeysetPagination";
import { StatCard } from "~/components/ui/StatCard";
import { formatMoney } from "~/domain/money";
import {
  BUYER_PAYMENT_SORTS,
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
import { buyerPaymentCounts, listBuyerPayments } from "~/models/payment.server";
import { searchFromUrl } from "~/utils/like";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { fileLinks } from "~/services/signed-url.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { pageRequestFromUrl } from "~/utils/keyset";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Pagos · CotizaHub",
    "Tus pagos y comprobantes: pendientes, en revisión, confirmados y rechazados.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const url = new URL(request.url);
  const q = searchFromUrl(url);
  const dates = dateRangeFrom(url.searchParams);
  const sort = sortFrom(url.searchParams.get("orden"), BUYER_PAYMENT_SORTS);
  const page = pageRequestFromUrl(url);
  const [counts, list, settings] = await Promise.all([
    buyerPaymentCounts(db, user.id),
    listBuyerPayments(db, { buyerId: user.id, q, page, range: dates.range, sort }),
    getSettings(db),
  ]);
  const receipts = Object.fromEntries(
    await Promise.all(
      list.rows
        .filter((p) => p.status === "confirmed")
        .map(
          async (p) =>
            [p.id, (await fileLinks(paths.files.receipt(p.id), user.id)).download] as const,
        ),
    ),
  );
  return { counts, ...list, q, dates, sort, receipts, currency: settings.currency };
}

export default function BuyerPayments() {
  const { counts, rows, total, pageInfo, q, dates, sort, receipts, currency } =
    useLoaderData<typeof loader>();
  const filtered = Boolean(q || hasRange(dates.range));
  return (
    <div className="space-y-6">
      <h1 className="page-title">Pagos</h1>
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
        <StatCard label="Total" value={counts.total} />
        <StatCard label="Pendientes" value={counts.pending} />
        <StatCard label="Confirmados" value={counts.confirmed} />
        <StatCard label="Rechazados" value={counts.rejected} />
        <StatCard label="Total pagado" value={formatMoney(counts.paidCents, currency)} />
      </div>
      <Form
        method="get"
        className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end"
        role="search"
      >
        <div className="flex-1">
          <label htmlFor="pagos-q" className="label">
            Buscar por título de la cotización
          </label>
          <input id="pagos-q" name="q" type="search" defaultValue={q} className="input" />
        </div>
        <DateRangeFields input={dates} subject={RANGE_SUBJECTS.payments} />
        <SortSelect sorts={BUYER_PAYMENT_SORTS} value={sort} />
        <button type="submit" className="btn-secondary">
          Buscar
        </button>
      </Form>
      <ActiveFilters
        chips={[rangeChip(dates, RANGE_SUBJECTS.payments), sortChip(BUYER_PAYMENT_SORTS, sort)]}
      />
      <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700">
        Validamos cada comprobante en un plazo de hasta 2 días hábiles.
      </p>
      {rows.length === 0 ? (
        <EmptyState title={filtered ? "No se encontraron resultados" : "Aún no tienes pagos"}>
          {filtered
            ? null
            : "Cuando apruebes una cotización podrás pagarla desde Mis Cotizaciones."}
        </EmptyState>
      ) : (
        <ul className="space-y-3">
          {rows.map((p) => (
            <PaymentItem
              key={p.id}
              payment={p}
              href={paths.buyer.quote(p.quote_request_id)}
              currency={currency}
              details={
                <p className="text-xs text-slate-600">
                  {p.confirmed_at
                    ? `Confirmado el ${formatDateTime(p.confirmed_at)}`
                    : p.submitted_at
                      ? `Comprobante enviado el ${formatDateTime(p.submitted_at)}`
                      : `Creado el ${formatDate(p.created_at)} · falta el comprobante`}
                </p>
              }
            >
              {receipts[p.id] ? (
                <p className="mt-2 text-sm">
                  <a href={receipts[p.id]} download className="text-brand-700 hover:underline">
                    Descargar recibo<span className="sr-only"> de {p.title}</span>
                  </a>
                </p>
              ) : null}
              {p.status === "rejected" ? (
                <div className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
                  <p className="font-semibold">Pago rechazado</p>
                  {p.rejection_reason ? <p>Motivo: {p.rejection_reason}</p> : null}
                  {/* Advice only while the request still waits for payment (not once paid or closed). */}
                  {p.request_status === "approved" ? (
                    <p>Contacta al administrador o envía un nuevo comprobante.</p>
                  ) : null}
                  {p.request_status === "approved" ? (
                    <Link
                      to={paths.buyer.newPayment(p.quote_request_id)}
                      className="btn-primary mt-2"
                    >
                      Enviar nuevo comprobante
                    </Link>
                  ) : null}
                </div>
              ) : null}
              {p.status === "pending" && !p.submitted_at && p.request_status === "approved" ? (
                <Link to={paths.buyer.newPayment(p.quote_request_id)} className="btn-primary mt-3">
                  Subir comprobante
                </Link>
              ) : null}
            </PaymentItem>
          ))}
        </ul>
      )}
      <KeysetPagination pageInfo={pageInfo} pageSize={PAYMENTS_PAGE_SIZE} total={total} />
    </div>
  );
}
