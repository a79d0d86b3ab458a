import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { RecentRequests } from "~/components/quotes/RecentRequests";
import { EmptyState } from "~/components/ui/EmptyState";
import { ProgressBar } from "~/components/ui/ProgressBar";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { Section } from "~/components/ui/Section";
import { tierFor } from "~/domain/loyalty";
import { formatMoney } from "~/domain/money";
import { loyaltySummary } from "~/models/loyalty.server";
import { buyerPaymentCounts } from "~/models/payment.server";
import { buyerStatusCounts, latestBuyerRequests } from "~/models/quote-request.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { paths } from "~/utils/paths";
import { formatNumber } from "~/utils/format";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Tablero · Comprador · CotizaHub",
    "Resumen de tus solicitudes, cotizaciones, pagos y puntos.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const [counts, latest, loyalty, payments, settings] = await Promise.all([
    buyerStatusCounts(db, user.id),
    latestBuyerRequests(db, user.id, 10),
    loyaltySummary(db, user.id),
    buyerPaymentCounts(db, user.id),
    getSettings(db),
  ]);
  return {
    firstName: user.first_name,
    counts,
    latest,
    loyalty,
    paidCents: payments.paidCents,
    currency: settings.currency,
  };
}

export default function BuyerDashboard() {
  const { firstName, counts, latest, loyalty, paidCents, currency } =
    useLoaderData<typeof loader>();
  const tier = tierFor(loyalty.earned);
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="page-title">Tablero</h1>
          <p className="mt-1 text-slate-700">
            Hola {firstName}, aquí tienes el resumen de tus cotizaciones.
          </p>
        </div>
        <Link to={paths.buyer.newQuote()} className="btn-primary">
          Nueva cotización
        </Link>
      </div>

      <StatGrid>
        <StatCard label="Total de cotizaciones" value={counts.total} />
        <StatCard
          label="Pendientes"
          value={counts.pending + counts.assigned}
          hint="Pendientes o asignadas"
        />
        {/* SPEC's «commissions earned»: the buyer earns none (the partner pays the commission,
            DECISIONS §9); what it has paid, confirmed payments only, as on «Pagos». */}
        <StatCard
          label="Total pagado"
          value={formatMoney(paidCents, currency)}
          hint="Pagos confirmados"
        />
        <StatCard
          label="Puntos de lealtad"
          value={formatNumber(loyalty.balance)}
          hint={`Nivel ${tier.current.name}`}
        />
      </StatGrid>

      <div className="grid gap-6 lg:grid-cols-3">
        <RecentRequests
          className="lg:col-span-2"
          rows={latest}
          currency={currency}
          allHref={paths.buyer.quotes()}
          hrefOf={paths.buyer.quote}
          empty={
            <EmptyState title="Aún no tienes solicitudes">
              <Link to={paths.buyer.newQuote()} className="btn-primary mt-2">
                Crear mi primera solicitud
              </Link>
            </EmptyState>
          }
        />

        <div className="space-y-6">
          <Section id="acciones" title="Acciones rápidas">
            <ul className="mt-3 space-y-2 text-sm">
              <li>
                <Link to={paths.buyer.newQuote()} className="text-brand-700 hover:underline">
                  Solicitar una cotización
                </Link>
              </li>
              <li>
                <Link
                  to={paths.buyer.quotes({ status: "approved" })}
                  className="text-brand-700 hover:underline"
                >
                  Pagar cotizaciones aprobadas
                </Link>
              </li>
              <li>
                <Link to={paths.buyer.payments()} className="text-brand-700 hover:underline">
                  Ver mis pagos
                </Link>
              </li>
              <li>
                <Link to={paths.buyer.rewards()} className="text-brand-700 hover:underline">
                  Canjear recompensas
                </Link>
              </li>
            </ul>
          </Section>
          <Section id="lealtad" title="Programa de lealtad">
            <p className="mt-2 text-sm text-slate-700">
              Nivel <strong>{tier.current.name}</strong> · {formatNumber(loyalty.balance)} puntos
              disponibles
            </p>
            {tier.next ? (
              <>
                <div className="mt-3">
                  <ProgressBar value={tier.progress} label={`Progreso hacia ${tier.next.name}`} />
                </div>
                <p className="mt-2 text-xs text-slate-600">
                  Te faltan {formatNumber(tier.pointsToNext)} puntos para {tier.next.name}.
                </p>
              </>
            ) : (
              <p className="mt-2 text-xs text-slate-600">Estás en el nivel más alto.</p>
            )}
            <Link
              to={paths.buyer.rewards()}
              className="mt-3 inline-block text-sm font-semibold text-brand-700 hover:underline"
            >
              Ver recompensas
            </Link>
          </Section>
        </div>
      </div>
    </div>
  );
}
