import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminPanelTabs } from "~/components/admin/AdminPanelTabs";
import { ProcessBanner } from "~/components/quotes/ProcessBanner";
import { RecentRequests } from "~/components/quotes/RecentRequests";
import { EmptyState } from "~/components/ui/EmptyState";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { adminStatusLabel } from "~/domain/quote-status";
import { adminPaymentCounts } from "~/models/payment.server";
import { adminStatusCounts, latestAdminRequests } from "~/models/quote-request.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Panel de administración · CotizaHub",
    "Resumen de solicitudes, pagos por validar y actividad reciente del marketplace.",
  );

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
      <RecentRequests
        rows={latest}
        currency={currency}
        allHref={paths.admin.quotes()}
        hrefOf={paths.admin.quote}
        empty={<EmptyState title="Aún no hay solicitudes" />}
        byline={(row) => row.buyer_company || `${row.buyer_first_name} ${row.buyer_last_name}`}
        statusLabel={(row) => adminStatusLabel(row.status, row.partner_quote_count)}
      />
    </div>
  );
}
