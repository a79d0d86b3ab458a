import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminPanelTabs } from "~/components/admin/AdminPanelTabs";
import { ProcessBanner } from "~/components/quotes/ProcessBanner";
import { StatusBadge } from "~/components/StatusBadge";
import { EmptyState } from "~/components/ui/EmptyState";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { formatMoney } from "~/domain/money";
import { adminStatusLabel } from "~/domain/quote-status";
import { adminPaymentCounts } from "~/models/payment.server";
import { adminStatusCounts, latestAdminRequests } from "~/models/quote-request.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { formatDate } from "~/utils/format";
import { paths } from "~/utils/paths";

export const meta: MetaFunction = () => [{ title: "Panel de administración · CotizaHub" }];

/** Payment review was a tab of this page (`?tab=payments`, and `?tab=pagos` in old notifications). */
const OLD_PAYMENT_TABS = ["payments", "pagos"];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const url = new URL(request.url);
  if (OLD_PAYMENT_TABS.includes(url.searchParams.get("tab") ?? "")) {
    url.searchParams.delete("tab");
    throw redirect(paths.admin.payments(Object.fromEntries(url.searchParams)), 301);
  }
  const [settings, requestCounts, paymentCounts, latest] = await Promise.all([
    getSettings(db),
    adminStatusCounts(db),
    adminPaymentCounts(db),
    latestAdminRequests(db, 10),
  ]);
  return {
    requestCounts,
    awaitingReview: paymentCounts.awaitingReview,
    currency: settings.currency,
    latest,
  };
}

export default function AdminIndex() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <h1 className="page-title">Panel de administración</h1>
      <AdminPanelTabs awaitingReview={d.awaitingReview} />
      <QuotesTab latest={d.latest} counts={d.requestCounts} currency={d.currency} />
    </div>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function QuotesTab({
  latest,
  counts,
  currency,
}: {
  latest: LoaderData["latest"];
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
          <Link
            to={paths.admin.quotes()}
            className="text-sm font-semibold text-brand-700 hover:underline"
          >
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
                  <Link to={paths.admin.quote(row.id)} className="font-semibold hover:underline">
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
