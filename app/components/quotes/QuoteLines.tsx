import { formatMoney } from "~/domain/money";
import { formatQuantity, formatRate, type OfferLine } from "~/domain/offer";

/**
 * The lines of an offer or an official quote, and its subtotal, tax and total, as every role sees
 * them. On a phone each line is a small card (no sideways scroll); from `sm` up, a table.
 */
export function QuoteLines({
  lines,
  subtotalCents,
  taxRate,
  taxCents,
  totalCents,
  currency,
  testId,
}: {
  lines: OfferLine[];
  subtotalCents: number;
  taxRate: number;
  taxCents: number;
  totalCents: number;
  currency: string;
  /** Prefix of the totals' test ids ("oferta-12" → "oferta-12-total"). */
  testId?: string;
}) {
  return (
    <div className="mt-3 text-sm">
      {lines.length > 0 ? (
        <table className="w-full border-collapse text-left">
          <caption className="sr-only">Renglones</caption>
          <thead className="hidden text-xs uppercase text-slate-600 sm:table-header-group">
            <tr>
              <th scope="col" className="py-1 pr-2 font-medium">
                Descripción
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                Cantidad
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                Precio unitario
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Importe
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line, i) => (
              <tr
                key={i}
                className="block border-t border-slate-200 py-2 sm:table-row"
                data-testid={testId ? `${testId}-renglon` : undefined}
              >
                <td className="block wrap-anywhere pr-2 font-medium sm:table-cell sm:py-1.5">
                  {line.description}
                </td>
                <td className="inline pr-2 sm:table-cell sm:py-1.5 sm:text-right">
                  {formatQuantity(line.quantityMilli)}
                  {line.unit ? ` ${line.unit}` : ""}
                  <span className="sm:hidden"> × </span>
                </td>
                <td className="inline pr-2 sm:table-cell sm:py-1.5 sm:text-right">
                  {formatMoney(line.unitPriceCents, currency)}
                  <span className="sm:hidden"> = </span>
                </td>
                <td className="inline font-semibold sm:table-cell sm:py-1.5 sm:text-right">
                  {formatMoney(line.lineCents, currency)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <dl className="mt-2 space-y-1 border-t border-slate-200 pt-2">
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">Subtotal</dt>
          <dd data-testid={testId ? `${testId}-subtotal` : undefined}>
            {formatMoney(subtotalCents, currency)}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">IVA ({formatRate(taxRate)})</dt>
          <dd data-testid={testId ? `${testId}-iva` : undefined}>
            {formatMoney(taxCents, currency)}
          </dd>
        </div>
        <div className="flex justify-between gap-4 font-semibold">
          <dt>Total</dt>
          <dd data-testid={testId ? `${testId}-total` : undefined}>
            {formatMoney(totalCents, currency)}
          </dd>
        </div>
      </dl>
    </div>
  );
}
