import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ColumnChart, FunnelChart } from "~/components/admin/Charts";
import { Badge } from "~/components/ui/Badge";
import { EmptyState } from "~/components/ui/EmptyState";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { Section } from "~/components/ui/Section";
import { formatHours, formatPercent, monthLabel, PROMISE_HOURS } from "~/domain/analytics";
import { formatCompactMoney, formatMoney } from "~/domain/money";
import { REQUEST_STATUSES, STATUS_LABELS, STATUS_TONES } from "~/domain/quote-status";
import { getAnalytics } from "~/models/analytics.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Analíticas · Administración · CotizaHub",
    "Conversión, volumen pagado, comisiones y tiempos de respuesta del marketplace.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const [analytics, settings] = await Promise.all([getAnalytics(db), getSettings(db)]);
  return { analytics, currency: settings.currency };
}

export default function AdminAnalytics() {
  const { analytics: a, currency } = useLoaderData<typeof loader>();
  const money = (cents: number) => formatMoney(cents, currency);
  const compactMoney = (cents: number) => formatCompactMoney(cents, currency);
  const onTime = a.turnaround.within48;
  return (
    <div>
      <h1 className="page-title">Analíticas</h1>
      <p className="mt-1 text-slate-700">
        Cifras calculadas con los datos reales de la plataforma.
      </p>

      <section aria-labelledby="resumen" className="mt-6">
        <h2 id="resumen" className="sr-only">
          Resumen
        </h2>
        <StatGrid>
          <StatCard label="Solicitudes" value={a.total} hint={`${a.counts.paid} pagadas`} />
          <StatCard
            label="Conversión"
            value={formatPercent(a.conversion)}
            hint="Solicitudes pagadas sobre el total"
          />
          <StatCard
            label="Volumen pagado"
            value={<span className="text-xl sm:text-2xl">{compactMoney(a.paidVolumeCents)}</span>}
            hint={`${money(a.paidVolumeCents)} en ${a.confirmedPayments} pagos confirmados`}
          />
          <StatCard
            label="Comisiones"
            value={<span className="text-xl sm:text-2xl">{compactMoney(a.commissionsCents)}</span>}
            hint={`${money(a.commissionsCents)} de pagos confirmados`}
          />
          <StatCard
            label="Primera cotización (mediana)"
            value={formatHours(a.turnaround.medianHours)}
            hint={`${a.turnaround.measured} solicitudes con cotización`}
          />
          <StatCard
            label={`Dentro de ${PROMISE_HOURS} h`}
            value={formatPercent(onTime)}
            hint={`Promesa: 24-48 h · dentro de 24 h: ${formatPercent(a.turnaround.within24)}`}
          />
          <StatCard
            label="Pagos por validar"
            value={a.pendingValidations.count}
            hint={`${money(a.pendingValidations.cents)} con comprobante enviado`}
          />
          <StatCard
            label="Cumplimiento de la promesa"
            value={
              onTime === null ? (
                "—"
              ) : onTime >= 0.9 ? (
                <Badge tone="green">Cumplida</Badge>
              ) : onTime >= 0.7 ? (
                <Badge tone="yellow">En riesgo</Badge>
              ) : (
                <Badge tone="red">Incumplida</Badge>
              )
            }
            hint="Meta: 90 % de solicitudes cotizadas en 48 h"
          />
        </StatGrid>
      </section>

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <Section id="por-estado" title="Solicitudes por estado">
          <ul className="mt-4 space-y-2 text-sm">
            {REQUEST_STATUSES.map((s) => (
              <li key={s} className="flex items-center justify-between gap-2">
                <Badge tone={STATUS_TONES[s]}>{STATUS_LABELS[s]}</Badge>
                <span className="font-semibold" data-testid={`status-${s}`}>
                  {a.counts[s]}
                </span>
              </li>
            ))}
          </ul>
        </Section>
        <Section id="embudo" title="Embudo de estados">
          <p className="mt-1 text-sm text-slate-700">
            Solicitudes que llegaron a cada paso, según su estado actual.
          </p>
          <div className="mt-4">
            <FunnelChart
              id="chart-funnel"
              title="Embudo de solicitudes"
              data={a.funnel.map((s) => ({ label: s.label, value: s.count }))}
            />
          </div>
        </Section>
      </div>

      <MonthlyChart
        id="mensual-solicitudes"
        title="Solicitudes por mes (últimos 12 meses)"
        chartId="chart-requests"
        chartTitle="Solicitudes creadas por mes"
        months={a.monthlyRequests}
      />
      <MonthlyChart
        id="mensual-volumen"
        title="Volumen pagado por mes (últimos 12 meses)"
        chartId="chart-volume"
        chartTitle="Volumen de pagos confirmados por mes"
        tone="green"
        format={compactMoney}
        months={a.monthlyVolume}
      />

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Section id="tiempos" title="Tiempo hasta la primera cotización">
          <p className="mt-1 text-sm text-slate-700">
            Horas desde que se crea la solicitud hasta la primera cotización de un socio.
          </p>
          <div className="mt-4">
            <ColumnChart
              id="chart-turnaround"
              width={440}
              height={240}
              title="Distribución del tiempo hasta la primera cotización"
              tone="amber"
              data={a.turnaround.histogram.map((b) => ({ label: b.label, value: b.count }))}
            />
          </div>
        </Section>
        <Section id="top-socios" title="Socios con más cotizaciones ganadas">
          {a.topPartners.length === 0 ? (
            <div className="mt-4">
              <EmptyState title="Aún no hay cotizaciones ganadas" />
            </div>
          ) : (
            <div
              className="relative mt-4 overflow-x-auto"
              tabIndex={0}
              role="region"
              aria-label="Tabla de socios"
            >
              <table className="min-w-full text-sm">
                <caption className="sr-only">Los 5 socios con más cotizaciones ganadas</caption>
                <thead className="text-left text-slate-700">
                  <tr>
                    <th scope="col" className="py-2 pr-4 font-semibold">
                      Socio
                    </th>
                    <th scope="col" className="py-2 pr-4 text-right font-semibold">
                      Ganadas
                    </th>
                    <th scope="col" className="py-2 text-right font-semibold">
                      Monto cotizado
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {a.topPartners.map((p) => (
                    <tr key={p.id}>
                      <td className="py-2 pr-4">{p.name}</td>
                      <td className="py-2 pr-4 text-right font-semibold">{p.won}</td>
                      <td className="whitespace-nowrap py-2 text-right">{money(p.cents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Section>
      </div>
    </div>
  );
}

/** A full-width card with one column per month. */
function MonthlyChart({
  id,
  title,
  chartId,
  chartTitle,
  months,
  ...chart
}: {
  id: string;
  title: string;
  chartId: string;
  chartTitle: string;
  months: { month: string; value: number }[];
  tone?: "green";
  format?: (n: number) => string;
}) {
  return (
    <Section id={id} title={title} className="mt-6">
      <div className="mt-4">
        <ColumnChart
          id={chartId}
          width={960}
          height={280}
          minWidthClass="min-w-[560px]"
          title={chartTitle}
          {...chart}
          data={months.map((m) => ({ label: monthLabel(m.month), value: m.value }))}
        />
      </div>
    </Section>
  );
}
