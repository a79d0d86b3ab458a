import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { UnreadBadge } from "~/components/threads/UnreadBadge";
import { unreadCountsFor } from "~/models/thread.server";
import { Form, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { Deadline } from "~/components/Deadline";
import { AssignmentBadge } from "~/components/partner/PartnerBadges";
import { EmptyState } from "~/components/ui/EmptyState";
import { KeysetPagination } from "~/components/ui/KeysetPagination";
import { StatCard, StatGrid } from "~/components/ui/StatCard";
import { formatMoney } from "~/domain/money";
import { offerRefusal, partnerSeesRequest } from "~/domain/assignment";
import { offerDeadlineNote } from "~/domain/deadline";
import type { PartnerFilter } from "~/domain/quote-status";
import { isPartnerFilter, listAssignments } from "~/models/partner-assignment.server";
import { requireRole } from "~/models/auth.server";
import { searchFromUrl } from "~/utils/like";
import { MAX_SEARCH_LENGTH } from "~/utils/search";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { fileLinks } from "~/services/signed-url.server";
import { formatDate, formatNumber } from "~/utils/format";
import { pageRequestFromUrl } from "~/utils/keyset";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Mis Asignaciones · Socio · CotizaHub",
    "Solicitudes asignadas a tu empresa, con su plazo para cotizar, búsqueda y filtros.",
  );

const FILTER_LABELS: Record<PartnerFilter, string> = {
  all: "Todas",
  pending: "Pendientes de cotizar",
  quoted: "Cotizadas",
  won: "Ganadas",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "partner");
  const url = new URL(request.url);
  const q = searchFromUrl(url);
  const rawFilter = url.searchParams.get("filter");
  const filter: PartnerFilter = isPartnerFilter(rawFilter) ? rawFilter : "all";
  const page = pageRequestFromUrl(url);
  const now = new Date();
  const [list, settings] = await Promise.all([
    listAssignments(db, { partnerId: user.id, search: q, filter, page, now }),
    getSettings(db),
  ]);
  const { counters } = list;
  // One query for the page's ids, however many rows.
  const unread = await unreadCountsFor(
    db,
    user,
    list.items.map((item) => item.id),
  );
  const items = await Promise.all(
    list.items.map(async (item) => {
      // Declined and withdrawn partners see only that the request is closed for them.
      const sees = partnerSeesRequest(item.state);
      return {
        ...item,
        sees,
        unread: unread[item.id] ?? 0,
        description: sees ? item.description : null,
        buyer_company: sees ? item.buyer_company : null,
        file_name: sees ? item.file_name : "",
        fileUrl: sees ? (await fileLinks(paths.files.request(item.id), user.id)).download : null,
        canOffer: offerRefusal(item.state, item.status, item.quote_deadline, now) === null,
        deadlineNote: offerDeadlineNote(item.state, item.status, item.quote_deadline, now),
      };
    }),
  );
  return {
    q,
    filter,
    currency: settings.currency,
    counters,
    items,
    matched: list.matched,
    matchedCapped: list.matchedCapped,
    overall: list.overall,
    pageInfo: list.pageInfo,
    pageSize: list.pageSize,
  };
}

export default function PartnerAssignments() {
  const {
    q,
    filter,
    currency,
    counters,
    items,
    matched,
    matchedCapped,
    overall,
    pageInfo,
    pageSize,
  } = useLoaderData<typeof loader>();
  const searching = q !== "" || filter !== "all";
  return (
    <div>
      <h1 className="page-title">Mis Asignaciones</h1>
      <p className="mt-1 text-slate-700">
        Solicitudes de cotización que te asignamos, las de plazo más próximo primero. Envía tu mejor
        precio antes de que venza el plazo.
      </p>

      <section aria-label="Resumen" className="mt-6">
        <StatGrid>
          <StatCard label="Total" value={counters.total} />
          <StatCard label="Pendientes de cotizar" value={counters.pending} />
          <StatCard label="Cotizaciones enviadas" value={counters.submitted} />
          <StatCard label="Cotizaciones ganadoras" value={counters.selected} />
        </StatGrid>
      </section>

      <Form
        method="get"
        role="search"
        aria-label="Buscar asignaciones"
        className="card mt-6 flex flex-col gap-4 sm:flex-row sm:items-end"
      >
        <div className="flex-1">
          <label htmlFor="q" className="label">
            Buscar
          </label>
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={MAX_SEARCH_LENGTH}
            placeholder="Título, descripción o cliente"
            className="input"
          />
        </div>
        <div className="sm:w-56">
          <label htmlFor="filter" className="label">
            Filtrar
          </label>
          <select id="filter" name="filter" defaultValue={filter} className="input">
            {Object.entries(FILTER_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-primary">
          Buscar
        </button>
      </Form>

      <p className="mt-4 text-sm text-slate-700" aria-live="polite" data-testid="count-text">
        {/* SPEC: "X de Y asignaciones" */}
        {matchedCapped ? `Más de ${formatNumber(matched - 1)}` : formatNumber(matched)} de{" "}
        {formatNumber(overall)} asignaciones
      </p>

      {items.length === 0 ? (
        <div className="mt-4">
          {overall === 0 ? (
            <EmptyState title="No tienes asignaciones aún">
              Cuando te asignemos una solicitud de cotización aparecerá aquí.
            </EmptyState>
          ) : (
            <EmptyState title="No se encontraron resultados">
              {searching ? (
                <Link to={paths.partner.assignments()} className="btn-link">
                  Ver todas las asignaciones
                </Link>
              ) : null}
            </EmptyState>
          )}
        </div>
      ) : (
        <ul className="mt-4 space-y-4">
          {items.map((item) => {
            const hasQuote = item.quote_id !== null;
            return (
              <li key={item.id} className="card" data-testid="assignment-card">
                <article aria-labelledby={`asignacion-${item.id}`}>
                  <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                    <h2
                      id={`asignacion-${item.id}`}
                      className="wrap-anywhere text-lg font-semibold text-slate-900"
                    >
                      {item.title}
                    </h2>
                    <div className="flex flex-wrap items-center gap-2">
                      <UnreadBadge count={item.unread} />
                      <AssignmentBadge state={item.state} status={item.status} />
                    </div>
                  </div>
                  {item.description ? (
                    <p className="mt-2 line-clamp-3 wrap-anywhere text-sm text-slate-700">
                      {item.description}
                    </p>
                  ) : null}
                  {item.sees ? null : (
                    <p className="mt-2 text-sm text-slate-700">
                      Esta solicitud está cerrada para ti.
                    </p>
                  )}
                  <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
                    {item.sees ? (
                      <>
                        <div>
                          <dt className="text-slate-600">Cliente</dt>
                          <dd className="wrap-anywhere font-medium">
                            {item.buyer_company ?? "Empresa no especificada"}
                          </dd>
                        </div>
                        <div>
                          <dt className="text-slate-600">Archivo adjunto</dt>
                          <dd className="min-w-0">
                            {item.fileUrl ? (
                              <a
                                href={item.fileUrl}
                                className="btn-link break-all"
                                download
                                aria-label={`Descargar ${item.file_name}`}
                              >
                                {item.file_name}
                              </a>
                            ) : null}
                          </dd>
                        </div>
                      </>
                    ) : null}
                    <div>
                      <dt className="text-slate-600">Plazo para cotizar</dt>
                      <dd className="font-medium">
                        <Deadline at={item.quote_deadline} note={item.deadlineNote} />
                      </dd>
                    </div>
                    <div>
                      <dt className="text-slate-600">Asignada el</dt>
                      <dd className="font-medium">{formatDate(item.assigned_at)}</dd>
                    </div>
                    <div>
                      <dt className="text-slate-600">Tu cotización</dt>
                      <dd className="font-medium">
                        {item.quoted_amount_cents === null
                          ? "Sin cotizar"
                          : formatMoney(item.quoted_amount_cents, currency)}
                      </dd>
                    </div>
                  </dl>
                  <div className="mt-4 flex flex-wrap gap-2">
                    <Link
                      to={paths.partner.assignment(item.id)}
                      className="btn-secondary"
                      aria-label={`Ver Detalles de «${item.title}»`}
                    >
                      Ver Detalles
                    </Link>
                    {item.canOffer ? (
                      <Link
                        to={paths.partner.quoteForm(item.id)}
                        className={hasQuote ? "btn-secondary" : "btn-primary"}
                        aria-label={
                          hasQuote
                            ? `Editar Cotización de «${item.title}»`
                            : `Enviar Cotización para «${item.title}»`
                        }
                      >
                        {hasQuote ? "Editar Cotización" : "Enviar Cotización"}
                      </Link>
                    ) : null}
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      )}

      <KeysetPagination
        pageInfo={pageInfo}
        pageSize={pageSize}
        total={matchedCapped ? null : matched}
      />
    </div>
  );
}
