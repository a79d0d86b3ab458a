import type { ReactNode } from "react";
import { Link } from "~/components/ui/Link";
import { StatusBadge } from "~/components/StatusBadge";
import { formatMoney } from "~/domain/money";
import { formatDate } from "~/utils/format";

interface RecentRequest {
  id: number;
  title: string;
  status: string;
  total_amount_cents: number | null;
  created_at: string;
}

/** The newest requests on a dashboard, each linking to its detail page, with a "Ver todas" link. */
export function RecentRequests<T extends RecentRequest>({
  rows,
  currency,
  allHref,
  hrefOf,
  empty,
  className,
  byline,
  statusLabel,
}: {
  rows: T[];
  currency: string;
  allHref: string;
  hrefOf: (id: number) => string;
  /** Shown instead of the list when there are no requests yet. */
  empty: ReactNode;
  className?: string;
  /** Who the request is from, before its date. */
  byline?: (row: T) => ReactNode;
  statusLabel?: (row: T) => string;
}) {
  return (
    <section aria-labelledby="recientes" className={className}>
      <div className="flex items-center justify-between">
        <h2 id="recientes" className="text-lg font-semibold">
          Solicitudes recientes
        </h2>
        <Link to={allHref} className="text-sm font-semibold text-brand-700 hover:underline">
          Ver todas
        </Link>
      </div>
      {rows.length === 0 ? (
        <div className="mt-3">{empty}</div>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {rows.map((row) => (
            <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 p-4">
              <div className="min-w-0">
                <Link to={hrefOf(row.id)} className="font-semibold text-slate-900 hover:underline">
                  {row.title}
                </Link>
                <p className="text-xs text-slate-600">
                  {byline ? <>{byline(row)} · </> : null}
                  {formatDate(row.created_at)}
                </p>
              </div>
              <div className="flex items-center gap-3">
                {row.total_amount_cents !== null ? (
                  <span className="text-sm font-semibold">
                    {formatMoney(row.total_amount_cents, currency)}
                  </span>
                ) : null}
                <StatusBadge status={row.status} label={statusLabel?.(row)} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
