import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { AdminPanelTabs } from "~/components/admin/AdminPanelTabs";
import { ProcessBanner } from "~/components/quotes/ProcessBanner";
import { RecentRequests } from "~/components/quotes/RecentRequests";
import { EmptyState } from "~/components/ui/EmptyState";
import { Section } from "~/components/ui/Section";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { adminStatusLabel } from "~/domain/quote-status";
import { latestFailedMail } from "~/models/mail-outbox.server";
import { adminPaymentCounts } from "~/models/payment.server";
import { adminStatusCounts, latestAdminRequests } from "~/models/quote-request.server";
import { pendingRedemptionCount } from "~/models/redemption.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { countOf, formatDateTime } from "~/utils/format";
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
  const [settings, requestCounts, paymentCounts, latest, failedMail, pendingRedemptions] =
    await Promise.all([
      getSettings(db),
      adminStatusCounts(db),
      adminPaymentCounts(db),
      latestAdminRequests(db, 10),
      latestFailedMail(db, 10),
      pendingRedemptionCount(db),
    ]);
  return {
    requestCounts,
    awaitingReview: paymentCounts.awaitingReview,
    pendingRedemptions,
    currency: settings.currency,
    latest,
    failedMail,
  };
}

export default function AdminIndex() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <h1 className="page-title">Panel de administración</h1>
      <AdminPanelTabs awaitingReview={d.awaitingReview} />
      <QuotesTab latest={d.latest} counts={d.requestCounts} currency={d.currency} />
      <RedemptionsCard pending={d.pendingRedemptions} />
      {d.failedMail.length > 0 ? <FailedMail rows={d.failedMail} /> : null}
    </div>
  );
}

/** Rewards redeemed by buyers wait for an operator to deliver them (/admin/redemptions). */
function RedemptionsCard({ pending }: { pending: number }) {
  return (
    <section
      aria-labelledby="canjes"
      className="card flex flex-wrap items-center justify-between gap-3"
    >
      <div>
        <h2 id="canjes" className="text-lg font-semibold">
          Canjes de recompensas
        </h2>
        <p className="text-sm text-slate-700" data-testid="canjes-pendientes">
          {pending > 0
            ? `${countOf(pending, "canje pendiente", "canjes pendientes")} de entrega`
            : "No hay canjes pendientes de entrega."}
        </p>
      </div>
      <Link to={paths.admin.redemptions()} className="btn-secondary">
        Ver canjes
      </Link>
    </section>
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

/** Mail that will not be delivered, so an operator can reach those people another way. */
function FailedMail({ rows }: { rows: LoaderData["failedMail"] }) {
  return (
    <Section id="correos-no-entregados" title="Correos no entregados">
      <p className="mt-1 text-sm text-slate-600">
        El servidor de correo los rechazó o se agotaron los reintentos; no se volverán a enviar.
      </p>
      <ul className="mt-3 divide-y divide-slate-200">
        {rows.map((mail) => (
          <li key={mail.id} className="py-3">
            <p className="font-semibold text-slate-900">{mail.subject}</p>
            <p className="text-sm text-slate-700">
              Para {mail.to_address} · {formatDateTime(mail.failed_at)}
            </p>
            {mail.last_error ? (
              <p className="mt-1 wrap-anywhere text-sm text-red-700">{mail.last_error}</p>
            ) : null}
          </li>
        ))}
      </ul>
    </Section>
  );
}
