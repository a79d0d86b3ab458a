import { useEffect, useRef, useState, type FormEvent } from "react";
import { Field, TextAreaField } from "~/components/ui/Field";
import { formatMoney } from "~/domain/money";
import {
  MAX_ITEMS,
  MAX_LEAD_TIME_DAYS,
  MAX_PAYMENT_TERMS,
  offerDraftFrom,
  parseOffer,
  formatRate,
  type OfferTotals,
} from "~/domain/offer";

type Totals = OfferTotals & { taxRate: number };

/** Rows the form shows: what was posted (one more after «Añadir renglón»), or the stored lines. */
export function offerRowCount(
  result: { initialValue?: Record<string, unknown> | null } | null | undefined,
  storedLines: number,
): number {
  const posted = result?.initialValue?.items;
  return Math.max(1, Array.isArray(posted) ? posted.length : storedLines);
}

type FieldProps = (name: string) => {
  name: string;
  defaultValue: string | undefined;
  errors: string[] | undefined;
};

/**
 * The fields of a structured offer (DECISIONS §7 names), shared by the partner's offer form and the
 * operator's revision of an official quote. Without JavaScript «Añadir renglón» posts the form
 * (intent `add_row`) and the page comes back with one more row and every value kept; with
 * JavaScript the row is added in place and the totals follow what is typed. The totals shown are
 * only a preview: the server computes them again and ignores any figure the browser sends.
 */
export function OfferFields({
  field,
  rows: initialRows,
  currency,
  defaultTaxRate,
  today,
  amountLabel,
  itemsError,
}: {
  field: FieldProps;
  /** How many item rows to show (at least one). */
  rows: number;
  currency: string;
  /** Hundredths of a percent. */
  defaultTaxRate: number;
  /** UTC day, for the validity's minimum. */
  today: string;
  amountLabel: string;
  itemsError?: string[];
}) {
  const [rows, setRows] = useState(initialRows);
  // The totals of the values the form starts from (stored, or posted and sent back).
  const shown = parseOffer(
    offerDraftFrom({ get: (name) => field(name).defaultValue ?? "" }, initialRows),
    { today, defaultTaxRate },
  );
  const preview: Totals | null = shown.ok ? shown.offer : null;
  const [totals, setTotals] = useState(preview);
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => setRows((current) => Math.max(current, initialRows)), [initialRows]);
  const previewKey = JSON.stringify(preview);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the values, not the object
  useEffect(() => setTotals(preview), [previewKey]);

  /** With JavaScript, the preview follows every keystroke (the same arithmetic as the server). */
  function recompute(event: FormEvent<HTMLDivElement>) {
    const form = (event.target as HTMLInputElement).form;
    if (!form) return;
    const parsed = parseOffer(offerDraftFrom(new FormData(form)), { today, defaultTaxRate });
    setTotals(parsed.ok ? parsed.offer : null);
  }

  return (
    <div ref={container} onInput={recompute} className="space-y-5">
      <fieldset>
        <legend className="text-base font-semibold">Renglones (opcional)</legend>
        <p className="mt-1 text-sm text-slate-600">
          Detalla artículos o servicios para que el comprador compare; el importe de cada renglón es
          cantidad × precio unitario (en {currency}). Si no detallas renglones, indica un monto
          único abajo.
        </p>
        {itemsError?.length ? (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {itemsError[0]}
          </p>
        ) : null}
        <input type="hidden" name="rows" value={rows} />
        <ol className="mt-3 space-y-3">
          {Array.from({ length: rows }, (_, i) => (
            <li key={i} className="rounded-md border border-slate-200 p-3">
              <p className="text-sm font-medium text-slate-700">Renglón {i + 1}</p>
              <div className="mt-2 grid gap-3 sm:grid-cols-[minmax(0,1fr)_7rem_6rem_9rem]">
                <Field
                  label="Descripción"
                  {...field(`items[${i}].description`)}
                  id={`item-${i}-description`}
                  maxLength={300}
                  autoComplete="off"
                />
                <Field
                  label="Cantidad"
                  {...field(`items[${i}].quantity`)}
                  id={`item-${i}-quantity`}
                  inputMode="decimal"
                  autoComplete="off"
                />
                <Field
                  label="Unidad"
                  {...field(`items[${i}].unit`)}
                  id={`item-${i}-unit`}
                  maxLength={20}
                  placeholder="pza"
                  autoComplete="off"
                />
                <Field
                  label="Precio unitario"
                  {...field(`items[${i}].unit_price`)}
                  id={`item-${i}-unit_price`}
                  inputMode="decimal"
                  autoComplete="off"
                />
              </div>
            </li>
          ))}
        </ol>
        {rows < MAX_ITEMS ? (
          <button
            type="submit"
            name="intent"
            value="add_row"
            formNoValidate
            className="btn-secondary mt-3"
            onClick={(event) => {
              event.preventDefault();
              setRows((n) => Math.min(MAX_ITEMS, n + 1));
              // Focus the new row's description once it is rendered.
              requestAnimationFrame(() =>
                container.current
                  ?.querySelector<HTMLInputElement>(`#item-${rows}-description`)
                  ?.focus(),
              );
            }}
          >
            Añadir renglón
          </button>
        ) : null}
      </fieldset>

      <Field
        label={amountLabel}
        {...field("amount")}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        hint="Solo si no detallas renglones. Usa punto o coma para los decimales (1234.50 o 1234,50)."
      />

      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          label="IVA (%)"
          {...field("tax_rate")}
          inputMode="decimal"
          autoComplete="off"
          hint={`Por defecto ${formatRate(defaultTaxRate)}.`}
        />
        <Field
          label="Plazo de entrega (días)"
          {...field("lead_time_days")}
          inputMode="numeric"
          autoComplete="off"
          hint={`De 0 a ${MAX_LEAD_TIME_DAYS}.`}
        />
        <Field
          label="Válida hasta"
          {...field("valid_until")}
          type="date"
          min={today}
          hint="Fecha límite de la oferta."
        />
      </div>
      <TextAreaField
        label="Condiciones de pago"
        {...field("payment_terms")}
        rows={2}
        maxLength={MAX_PAYMENT_TERMS}
        placeholder="Por ejemplo: 50 % anticipo, 50 % contra entrega."
      />

      <div className="rounded-md bg-slate-50 p-4" aria-live="polite">
        <p className="text-sm font-semibold">Totales</p>
        <dl className="mt-2 space-y-1 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600">Subtotal</dt>
            <dd data-testid="vista-subtotal">{formatMoney(totals?.subtotalCents, currency)}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600">
              IVA{totals ? ` (${formatRate(totals.taxRate)})` : ""}
            </dt>
            <dd data-testid="vista-iva">{formatMoney(totals?.taxCents, currency)}</dd>
          </div>
          <div className="flex justify-between gap-4 font-semibold">
            <dt>Total</dt>
            <dd data-testid="vista-total">{formatMoney(totals?.totalCents, currency)}</dd>
          </div>
        </dl>
        <button type="submit" name="intent" value="preview" className="btn-link mt-2 text-sm">
          Calcular totales
        </button>
        <p className="mt-1 text-xs text-slate-600">
          El servidor calcula los importes al guardar: redondeo al centavo en cada renglón, en el
          subtotal y en el IVA.
        </p>
      </div>
    </div>
  );
}
