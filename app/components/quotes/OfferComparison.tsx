import type { ReactNode } from "react";
import { Badge } from "~/components/ui/Badge";
import { formatMoney } from "~/domain/money";
import { comparisonMarks, formatRate, leadTimeLabel, type OfferLine } from "~/domain/offer";
import { formatDate, formatDateTime } from "~/utils/format";
import { QuoteLines } from "./QuoteLines";

export interface ComparedOffer {
  id: number;
  partner_id: number;
  partnerName: string;
  quoted_amount_cents: number;
  subtotal_cents: number;
  tax_rate: number;
  tax_cents: number;
  lead_time_days: number | null;
  valid_until: string | null;
  payment_terms: string | null;
  notes: string | null;
  file_name: string | null;
  is_selected: number;
  updated_at: string;
  lines: OfferLine[];
  /** Signed download link of the offer's file, if it has one. */
  file?: string;
}

/**
 * The operator's comparison of the offers on a request (DECISIONS §7): one column per offer, one
 * row per term, the lowest total and the shortest lead time marked, expired offers marked (the
 * server refuses to approve them). On a phone the table scrolls inside its box, the terms' column
 * staying in place; the page itself never scrolls sideways (the box is `relative` so the screen-
 * reader-only text of its buttons is clipped with it).
 */
export function OfferComparison({
  offers,
  currency,
  today,
  action,
}: {
  offers: ComparedOffer[];
  currency: string;
  /** UTC day the page was rendered for. */
  today: string;
  /** The approve button of an offer, when approving is possible. */
  action?: (offer: ComparedOffer) => ReactNode;
}) {
  const marks = comparisonMarks(offers, today);
  const row = (label: string, cell: (offer: ComparedOffer) => ReactNode) => (
    <tr className="border-t border-slate-200 align-top">
      <th
        scope="row"
        className="sticky left-0 z-10 bg-white py-2 pr-3 text-left font-medium text-slate-600"
      >
        {label}
      </th>
      {offers.map((offer) => (
        <td key={offer.id} className="min-w-[11rem] px-3 py-2">
          {cell(offer)}
        </td>
      ))}
    </tr>
  );
  return (
    <div
      className="relative mt-3 overflow-x-auto"
      role="region"
      aria-label="Comparación de ofertas"
      tabIndex={0}
    >
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">Comparación de las ofertas de los socios</caption>
        <thead>
          <tr>
            <td className="sticky left-0 z-10 bg-white" />
            {offers.map((offer) => (
              <th
                key={offer.id}
                scope="col"
                className="min-w-[11rem] px-3 pb-2 text-left align-top"
                data-testid={`oferta-${offer.partner_id}`}
              >
                <span className="block wrap-anywhere font-semibold">{offer.partnerName}</span>
                <span className="block text-xs font-normal text-slate-600">
                  {formatDateTime(offer.updated_at)}
                </span>
                <span className="mt-1 flex flex-wrap gap-1">
                  {offer.is_selected ? <Badge tone="green">Seleccionada</Badge> : null}
                  {marks.lowestTotal.has(offer.id) ? <Badge tone="blue">Menor total</Badge> : null}
                  {marks.fastest.has(offer.id) ? (
                    <Badge tone="blue">Entrega más rápida</Badge>
                  ) : null}
                  {marks.expired.has(offer.id) ? <Badge tone="red">Vencida</Badge> : null}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {row("Subtotal", (o) => formatMoney(o.subtotal_cents, currency))}
          {row("IVA", (o) => `${formatMoney(o.tax_cents, currency)} (${formatRate(o.tax_rate)})`)}
          {row("Total", (o) => (
            <span className="font-bold" data-testid={`cotizacion-socio-${o.partner_id}`}>
              {formatMoney(o.quoted_amount_cents, currency)}
            </span>
          ))}
          {row("Plazo de entrega", (o) => leadTimeLabel(o.lead_time_days))}
          {row("Válida hasta", (o) => (o.valid_until ? formatDate(o.valid_until) : "Sin fecha"))}
          {row("Condiciones de pago", (o) => (
            <span className="whitespace-pre-line wrap-anywhere">{o.payment_terms ?? "—"}</span>
          ))}
          {row("Renglones", (o) =>
            o.lines.length ? (
              <details>
                <summary className="cursor-pointer text-brand-700">
                  {o.lines.length === 1 ? "1 renglón" : `${o.lines.length} renglones`}
                </summary>
                <QuoteLines
                  lines={o.lines}
                  subtotalCents={o.subtotal_cents}
                  taxRate={o.tax_rate}
                  taxCents={o.tax_cents}
                  totalCents={o.quoted_amount_cents}
                  currency={currency}
                />
              </details>
            ) : (
              "Monto único"
            ),
          )}
          {row("Notas", (o) => (
            <span className="line-clamp-6 whitespace-pre-line wrap-anywhere">{o.notes ?? "—"}</span>
          ))}
          {row("Archivo", (o) =>
            o.file ? (
              <a href={o.file} className="break-all text-brand-700 hover:underline" download>
                {o.file_name}
              </a>
            ) : (
              "—"
            ),
          )}
          {action ? row("Acción", (o) => action(o)) : null}
        </tbody>
      </table>
    </div>
  );
}
