import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { Deadline } from "~/components/Deadline";
import { AssignmentBadge } from "~/components/partner/PartnerBadges";
import { EmptyState } from "~/components/ui/EmptyState";
import { StatCard } from "~/components/ui/StatCard";
import { Section } from "~/components/ui/Section";
import { formatMoney } from "~/domain/money";
import { offerRefusal, partnerSeesRequest } from "~/domain/assignment";
import { offerDeadlineNote } from "~/domain/deadline";
import {
  getPartnerCounters,
  listLatestAssignments,
  performanceFrom,
} from "~/models/partner-assignment.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { formatDate, formatNumber } from "~/utils/format";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Tablero · Socio · CotizaHub",
    "Tus asignaciones, cotizaciones enviadas, cotizaciones ganadas e ingresos.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "partner");
  const [counters, latest, settings] = await Promise.all([
    getPartnerCounters(db, user.id),
    listLatestAssignments(db, user.id),
    getSettings(db),
  ]);
  const now = new Date();
  return {
    firstName: user.first_name,
    currency: settings.currency,
    counters,
    performance: performanceFrom(counters),
    latest: latest.map((item) => ({
      ...item,
      // Declined and withdrawn partners see only that the request is closed for them.
      buyer_company: partnerSeesRequest(item.state) ? item.buyer_company : null,
      description: null,
      canOffer: offerRefusal(item.state, item.status, item.quote_deadline, now) === null,
      deadlineNote: offerDeadlineNote(item.state, item.status, item.quote_deadline, now),
    })),
  };
}

const percent = (value: number | null) => (value === null ? "—" : `${formatNumber(value, 1)} %`);

export default function PartnerDashboard() {
  const { firstName, currency, counters, performance, latest } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="page-title">Tablero</h1>
      <p className="mt-1 text-slate-700">
        Hola {firstName}, este es el resumen de tus solicitudes de cotización.
      </p>

      <section aria-label="Resumen" className="mt-6">
        <div className="grid grid-cols-2 gap-4 md:grid-cols-3 2xl:grid-cols-5">
          <StatCard label="Asignaciones" value={counters.total} />
          <StatCard
            label="Pendientes de cotizar"
            value={counters.pending}
            hint="Sin cotización enviada"
          />
          <StatCard label="Cotizaciones enviadas" value={counters.submitted} />
          <StatCard label="Cotizaciones seleccionadas" value={counters.selected} />
          <div className="col-span-2 md:col-span-1">
            <StatCard
              label="Ingresos potenciales"
              value={formatMoney(counters.potentialRevenueCents, currency)}
              hint="En evaluación o seleccionadas"
            />
          </div>
        </div>
      </section>

      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <section aria-labelledby="recientes" className="lg:col-span-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="recientes" className="text-lg font-semibold">
              Asignaciones recientes
            </h2>
            <Link to={paths.partner.assignments()} className="btn-link text-sm">
              Ver todas
            </Link>
          </div>
          {latest.length === 0 ? (
            <div className="mt-4">
              <EmptyState title="No tienes asignaciones aún">
                Cuando te asignemos una solicitud de cotización aparecerá aquí.
              </EmptyState>
            </div>
          ) : (
            <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
              {latest.map((item) => {
                const hasQuote = item.quote_id !== null;
                return (
                  <li
                    key={item.id}
                    className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
                  >
                    <div className="min-w-0">
                      <Link
                        to={paths.partner.assignment(item.id)}
                        className="btn-link wrap-anywhere"
                      >
                        {item.title}
                      </Link>
                      <p className="mt-1 text-sm text-slate-700">
                        {partnerSeesRequest(item.state)
                          ? `${item.buyer_company ?? "Empresa no especificada"} · `
                          : ""}
                        Asignada el {formatDate(item.assigned_at)}
                      </p>
                      <div className="mt-2 flex flex-wrap items-start gap-x-3 gap-y-1 text-sm">
                        <AssignmentBadge state={item.state} status={item.status} />
                        <span className="text-slate-700">
                          Plazo: <Deadline at={item.quote_deadline} note={item.deadlineNote} />
                        </span>
                      </div>
                    </div>
                    <div className="flex shrink-0 items-center gap-3">
                      {item.quoted_amount_cents !== null ? (
                        <span className="font-semibold text-slate-900">
                          {formatMoney(item.quoted_amount_cents, currency)}
                        </span>
                      ) : null}
                      {item.canOffer ? (
                        <Link
                          to={paths.partner.quoteForm(item.id)}
                          className={hasQuote ? "btn-secondary" : "btn-primary"}
                          aria-label={
                            hasQuote
                              ? `Editar cotización de «${item.title}»`
                              : `Cotizar «${item.title}»`
                          }
                        >
                          {hasQuote ? "Editar" : "Cotizar"}
                        </Link>
                      ) : null}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </section>

        <div className="space-y-6">
          <Section id="rendimiento" title="Rendimiento">
            <dl className="mt-4 space-y-3 text-sm">
              <div className="flex justify-between gap-4">
                <dt className="text-slate-700">Tasa de respuesta</dt>
                <dd className="font-semibold" data-testid="response-rate">
                  {percent(performance.responseRate)}
                </dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-slate-700">Tasa de éxito</dt>
                <dd className="font-semibold" data-testid="success-rate">
                  {percent(performance.successRate)}
                </dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-slate-700">Ingreso por cotización seleccionada</dt>
                <dd className="font-semibold">
                  {formatMoney(performance.revenuePerSelectedCents, currency)}
                </dd>
              </div>
            </dl>
            <p className="mt-3 text-xs text-slate-600">
              Respuesta: cotizaciones enviadas sobre asignaciones. Éxito: seleccionadas sobre
              enviadas.
            </p>
          </Section>

          <Section id="siguientes" title="Próximos pasos">
            <ul className="mt-3 space-y-3 text-sm">
              <li>
                <Link to={paths.partner.assignments({ filter: "pending" })} className="btn-link">
                  Cotiza tus solicitudes pendientes
                </Link>
                <p className="text-slate-700">Responde en 24-48 horas para aumentar tu éxito.</p>
              </li>
              <li>
                <Link to={paths.partner.quotes()} className="btn-link">
                  Revisa tus cotizaciones
                </Link>
                <p className="text-slate-700">Consulta el estado de cada cotización enviada.</p>
              </li>
              <li>
                <Link to={paths.profile()} className="btn-link">
                  Completa tu perfil
                </Link>
                <p className="text-slate-700">Mantén tus datos de empresa y contacto al día.</p>
              </li>
            </ul>
          </Section>
        </div>
      </div>
    </div>
  );
}
