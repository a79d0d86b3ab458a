import { readForm } from "~/services/form.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS } from "~/domain/payments";
import { PAYMENTS_PAGE_SIZE } from "~/domain/pagination";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { PaymentStatus } from "../../db/schema";
import { ProcessBanner } from "~/components/quotes/ProcessBanner";
import { StatusBadge } from "~/components/StatusBadge";
import { EmptyState } from "~/components/ui/EmptyState";
import { FormAlert } from "~/components/ui/Field";
import { KeysetPagination } from "~/components/ui/KeysetPagination";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { formatMoney } from "~/domain/money";
import { adminStatusLabel } from "~/domain/quote-status";
import {
  adminPaymentCounts,
  confirmPayment,
  listPaymentsForAdmin,
  rejectPayment,
} from "~/models/payment.server";
import {
  adminStatusCounts,
  latestAdminRequests,
  searchFromUrl,
} from "~/models/quote-request.server";
import { requireRole } from "~/services/auth.server";
import { db } from "~/services/db.server";
import { toastCookie } from "~/services/session.server";
import { getSettings } from "~/services/settings.server";
import { fileLinks } from "~/services/signed-url.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { PaymentStatusBadge } from "~/components/PaymentStatusBadge";
import { idFrom } from "~/utils/ids";
import { pageRequestFromUrl } from "~/utils/keyset";

export const meta: MetaFunction = () => [{ title: "Panel de administración · CotizaHub" }];

const PAYMENT_STATUSES: PaymentStatus[] = ["pending", "confirmed", "rejected"];

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const url = new URL(request.url);
  const tab = url.searchParams.get("tab") === "payments" ? "payments" : "quotes";
  const settings = await getSettings(db);
  const [requestCounts, paymentCounts] = await Promise.all([
    adminStatusCounts(db),
    adminPaymentCounts(db),
  ]);
  if (tab === "quotes") {
    const latest = await latestAdminRequests(db, 10);
    return {
      tab,
      requestCounts,
      paymentCounts,
      currency: settings.currency,
      latest,
      payments: null,
    } as const;
  }
  const q = searchFromUrl(url);
  const rawStatus = url.searchParams.get("status");
  const status = PAYMENT_STATUSES.find((s) => s === rawStatus) ?? null;
  const page = pageRequestFromUrl(url);
  const list = await listPaymentsForAdmin(db, { q, status, page });
  const proofs = Object.fromEntries(
    await Promise.all(
      list.rows
        .filter((p) => p.proof_key)
        .map(async (p) => [p.id, await fileLinks(`/files/payments/${p.id}`, admin.id)] as const),
    ),
  );
  return {
    tab,
    requestCounts,
    paymentCounts,
    currency: settings.currency,
    latest: null,
    payments: { ...list, q, status, proofs },
  } as const;
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const form = await readForm(request);
  const intent = form.get("intent");
  const paymentId = idFrom(form.get("payment_id"));
  const back = "/admin?tab=payments";
  if (!paymentId) {
    return data({ paymentId: null, error: "Pago no encontrado." }, { status: 404 });
  }
  if (intent === "confirm_payment") {
    const result = await confirmPayment(db, { paymentId, adminId: admin.id });
    if (!result.ok)
      return data(
        { paymentId, error: result.message },
        { status: result.error === "not_found" ? 404 : 409 },
      );
    return redirect(back, {
      headers: {
        "Set-Cookie": await toastCookie({
          type: "success",
          title: "Éxito",
          description: `Pago confirmado. La solicitud quedó pagada y el comprador sumó ${result.points} puntos.`,
        }),
      },
    });
  }
  if (intent === "reject_payment") {
    const reason = String(form.get("reason") ?? "")
      .trim()
      .slice(0, 500);
    if (!reason) {
      return data(
        { paymentId, error: "Indica el motivo del rechazo: el comprador lo verá." },
        { status: 400 },
      );
    }
    const result = await rejectPayment(db, { paymentId, adminId: admin.id, reason });
    if (!result.ok)
      return data(
        { paymentId, error: result.message },
        { status: result.error === "not_found" ? 404 : 409 },
      );
    return redirect(back, {
      headers: {
        "Set-Cookie": await toastCookie({
          type: "success",
          title: "Éxito",
          description: "Pago rechazado. Avisamos al comprador.",
        }),
      },
    });
  }
  return data({ paymentId: null, error: "Acción no reconocida." }, { status: 400 });
}

export default function AdminIndex() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <h1 className="page-title">Panel de administración</h1>
      <nav aria-label="Secciones del panel" className="flex gap-2 border-b border-slate-200">
        <TabLink to="/admin" active={d.tab === "quotes"}>
          Cotizaciones
        </TabLink>
        <TabLink to="/admin?tab=payments" active={d.tab === "payments"}>
          Pagos
          {d.paymentCounts.awaitingReview > 0 ? (
            <span className="ml-2 rounded-full bg-amber-100 px-2 text-xs text-amber-900">
              {d.paymentCounts.awaitingReview}
            </span>
          ) : null}
        </TabLink>
      </nav>
      {d.latest ? (
        <QuotesTab latest={d.latest} counts={d.requestCounts} currency={d.currency} />
      ) : null}
      {d.payments ? (
        <PaymentsTab {...d.payments} counts={d.paymentCounts} currency={d.currency} />
      ) : null}
    </div>
  );
}

function TabLink({
  to,
  active,
  children,
}: {
  to: string;
  active: boolean;
  children: React.ReactNode;
}) {
  return (
    <Link
      to={to}
      aria-current={active ? "page" : undefined}
      className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${active ? "border-brand-700 text-brand-800" : "border-transparent text-slate-700 hover:text-slate-900"}`}
    >
      {children}
    </Link>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function QuotesTab({
  latest,
  counts,
  currency,
}: {
  latest: NonNullable<LoaderData["latest"]>;
  counts: LoaderData["requestCounts"];
  currency: string;
}) {
  return (
    <div className="space-y-6">
      <ProcessBanner />
      <StatGrid>
        <StatCard label="Pendientes" value={counts.pending} />
        <StatCard label="Asignadas" value={counts.assigned} />
        <StatCard label="Cotizadas" value={counts.quoted} />
        <StatCard label="Pagadas" value={counts.paid} />
      </StatGrid>
      <section aria-labelledby="recientes">
        <div className="flex items-center justify-between">
          <h2 id="recientes" className="text-lg font-semibold">
            Solicitudes recientes
          </h2>
          <Link to="/admin/quotes" className="text-sm font-semibold text-brand-700 hover:underline">
            Ver todas
          </Link>
        </div>
        {latest.length === 0 ? (
          <div className="mt-3">
            <EmptyState title="Aún no hay solicitudes" />
          </div>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {latest.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 p-4">
                <div>
                  <Link to={`/admin/quotes/${row.id}`} className="font-semibold hover:underline">
                    {row.title}
                  </Link>
                  <p className="text-xs text-slate-600">
                    {row.buyer_company || `${row.buyer_first_name} ${row.buyer_last_name}`} ·{" "}
                    {formatDate(row.created_at)}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  {row.total_amount_cents !== null ? (
                    <span className="text-sm font-semibold">
                      {formatMoney(row.total_amount_cents, currency)}
                    </span>
                  ) : null}
                  <StatusBadge
                    status={row.status}
                    label={adminStatusLabel(row.status, row.partner_quote_count)}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function PaymentsTab({
  rows,
  total,
  pageInfo,
  q,
  status,
  proofs,
  counts,
  currency,
}: NonNullable<LoaderData["payments"]> & {
  counts: LoaderData["paymentCounts"];
  currency: string;
}) {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="space-y-6">
      <StatGrid>
        <StatCard
          label="Por validar"
          value={counts.awaitingReview}
          hint="Con comprobante enviado"
        />
        <StatCard label="Pendientes" value={counts.pending} />
        <StatCard label="Confirmados" value={counts.confirmed} />
        <StatCard label="Rechazados" value={counts.rejected} />
      </StatGrid>
      <Form method="get" className="flex flex-col gap-3 sm:flex-row sm:items-end" role="search">
        <input type="hidden" name="tab" value="payments" />
        <div className="flex-1">
          <label htmlFor="pagos-q" className="label">
            Buscar por título o comprador
          </label>
          <input id="pagos-q" name="q" type="search" defaultValue={q} className="input" />
        </div>
        <div>
          <label htmlFor="pagos-estado" className="label">
            Estado
          </label>
          <select id="pagos-estado" name="status" defaultValue={status ?? ""} className="input">
            <option value="">Todos</option>
            {PAYMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {PAYMENT_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-secondary">
          Filtrar
        </button>
      </Form>
      {actionData?.error && actionData.paymentId === null ? (
        <FormAlert title="Error">{actionData.error}</FormAlert>
      ) : null}
      {rows.length === 0 ? (
        <EmptyState title="No hay pagos" />
      ) : (
        <ul className="space-y-3">
          {rows.map((p) => (
            <li key={p.id} className="card">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <Link
                    to={`/admin/quotes/${p.quote_request_id}`}
                    className="font-semibold hover:underline"
                  >
                    {p.title}
                  </Link>
                  <p className="text-sm text-slate-700">
                    {p.buyer_company || "Empresa no especificada"} · {p.buyer_first_name}{" "}
                    {p.buyer_last_name}
                  </p>
                  <p className="text-sm text-slate-700">
                    <span className="font-semibold">{formatMoney(p.amount_cents, currency)}</span>
                    {p.method ? ` · ${PAYMENT_METHOD_LABELS[p.method]}` : ""}
                    {p.submitted_at
                      ? ` · comprobante enviado el ${formatDateTime(p.submitted_at)}`
                      : " · esperando comprobante del comprador"}
                  </p>
                  {p.rejection_reason ? (
                    <p className="text-sm text-red-800">Motivo del rechazo: {p.rejection_reason}</p>
                  ) : null}
                </div>
                <PaymentStatusBadge status={p.status} />
              </div>
              {proofs[p.id] ? (
                <p className="mt-2 flex flex-wrap gap-3 text-sm">
                  <a
                    href={proofs[p.id]!.open}
                    target="_blank"
                    rel="noreferrer"
                    className="text-brand-700 hover:underline"
                  >
                    Ver comprobante<span className="sr-only"> de {p.title}</span>
                  </a>
                  <a
                    href={proofs[p.id]!.download}
                    download
                    className="text-brand-700 hover:underline"
                  >
                    Descargar<span className="sr-only"> el comprobante de {p.title}</span>
                  </a>
                </p>
              ) : null}
              {actionData?.error && actionData.paymentId === p.id ? (
                <div className="mt-3">
                  <FormAlert title="No se pudo actualizar el estado del pago">
                    {actionData.error}
                  </FormAlert>
                </div>
              ) : null}
              {p.status === "pending" && p.proof_key ? (
                <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
                  <Form method="post">
                    <input type="hidden" name="intent" value="confirm_payment" />
                    <input type="hidden" name="payment_id" value={p.id} />
                    <button type="submit" className="btn-primary" disabled={busy}>
                      Confirmar pago<span className="sr-only"> de {p.title}</span>
                    </button>
                  </Form>
                  <Form
                    method="post"
                    className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-end"
                  >
                    <input type="hidden" name="intent" value="reject_payment" />
                    <input type="hidden" name="payment_id" value={p.id} />
                    <div className="flex-1">
                      <label htmlFor={`motivo-${p.id}`} className="label">
                        Motivo del rechazo
                      </label>
                      <input
                        id={`motivo-${p.id}`}
                        name="reason"
                        className="input"
                        maxLength={500}
                        placeholder="Ej.: el comprobante no es legible"
                      />
                    </div>
                    <button type="submit" className="btn-danger" disabled={busy}>
                      Rechazar<span className="sr-only"> el pago de {p.title}</span>
                    </button>
                  </Form>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <KeysetPagination pageInfo={pageInfo} pageSize={PAYMENTS_PAGE_SIZE} total={total} />
    </div>
  );
}
