import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { Deadline } from "~/components/Deadline";
import { AssignmentBadge } from "~/components/partner/PartnerBadges";
import { EmptyState } from "~/components/ui/EmptyState";
import { Pagination, pageFromUrl } from "~/components/ui/Pagination";
import { formatMoney } from "~/domain/money";
import { offerRefusal } from "~/domain/assignment";
import { offerDeadlineNote } from "~/domain/deadline";
import { listPartnerQuotes } from "~/models/partner-assignment.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { formatDate } from "~/utils/format";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta("Mis Cotizaciones · Socio · CotizaHub", "Las cotizaciones que enviaste y su resultado.");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "partner");
  const page = pageFromUrl(new URL(request.url));
  const [list, settings] = await Promise.all([
    listPartnerQuotes(db, { partnerId: user.id, page }),
    getSettings(db),
  ]);
  const now = new Date();
  const items = list.items.map((quote) => ({
    ...quote,
    editable: offerRefusal(quote.state, quote.status, quote.quote_deadline, now) === null,
    deadlineNote: offerDeadlineNote(quote.state, quote.status, quote.quote_deadline, now),
  }));
  return { ...list, items, currency: settings.currency };
}

export default function PartnerQuotes() {
  const { items, total, page, pageSize, currency } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="page-title">Mis Cotizaciones</h1>
      <p className="mt-1 text-slate-700">
        Todas las cotizaciones que has enviado y en qué estado se encuentran.
      </p>
      <p className="mt-4 text-sm text-slate-700">
        {total} {total === 1 ? "cotización" : "cotizaciones"}
      </p>
      {items.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="Aún no has enviado cotizaciones">
            <Link to={paths.partner.assignments({ filter: "pending" })} className="btn-link">
              Ver solicitudes pendientes de cotizar
            </Link>
          </EmptyState>
        </div>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {items.map((quote) => (
            <li
              key={quote.id}
              className="grid gap-3 p-4 sm:grid-cols-[1fr_auto] sm:items-center"
              data-testid="partner-quote"
            >
              <div className="min-w-0">
                <Link
                  to={paths.partner.assignment(quote.request_id)}
                  className="btn-link wrap-anywhere"
                >
                  {quote.title}
                </Link>
                <p className="mt-1 text-sm text-slate-700">
                  Enviada el {formatDate(quote.created_at)}
                  {formatDate(quote.updated_at) !== formatDate(quote.created_at)
                    ? ` · Actualizada el ${formatDate(quote.updated_at)}`
                    : ""}
                </p>
                <div className="mt-2 flex flex-wrap items-start gap-x-3 gap-y-1 text-sm">
                  <AssignmentBadge state={quote.state} status={quote.status} />
                  {quote.deadlineNote ? (
                    <span className="text-slate-700">
                      Plazo: <Deadline at={quote.quote_deadline} note={quote.deadlineNote} />
                    </span>
                  ) : null}
                </div>
              </div>
              <div className="flex items-center gap-3 sm:flex-col sm:items-end">
                <span className="text-lg font-bold text-slate-900">
                  {formatMoney(quote.quoted_amount_cents, currency)}
                </span>
                {quote.editable ? (
                  <Link
                    to={paths.partner.quoteForm(quote.request_id)}
                    className="btn-secondary"
                    aria-label={`Editar cotización de «${quote.title}»`}
                  >
                    Editar
                  </Link>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageSize={pageSize} total={total} />
    </div>
  );
}
