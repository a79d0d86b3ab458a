import type { ReactNode } from "react";
import { formatMoney } from "~/domain/money";
import { formatDate, formatNumber } from "~/utils/format";

/** An official quote's amounts, validity and PDF, as the buyer and the admins see it. */
export function OfficialQuoteSummary({
  quote,
  pdf,
  children,
}: {
  quote: {
    final_amount_cents: number;
    commission_percentage: number;
    commission_amount_cents: number;
    currency: string;
    valid_until: string;
  };
  pdf: { download: string; open: string };
  /** Further actions beside the PDF links. */
  children?: ReactNode;
}) {
  return (
    <>
      <dl className="mt-3 grid gap-3 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-slate-600">Monto final</dt>
          <dd className="text-2xl font-bold" data-testid="monto-oficial">
            {formatMoney(quote.final_amount_cents, quote.currency)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">
            Comisión ({formatNumber(quote.commission_percentage, 3)} %)
          </dt>
          <dd className="font-semibold">
            {formatMoney(quote.commission_amount_cents, quote.currency)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">Válida hasta</dt>
          <dd className="font-semibold">{formatDate(quote.valid_until)}</dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-wrap gap-3">
        <a href={pdf.download} className="btn-secondary" download>
          Descargar PDF
        </a>
        <a href={pdf.open} className="btn-secondary" target="_blank" rel="noreferrer">
          Ver PDF
        </a>
        {children}
      </div>
    </>
  );
}
