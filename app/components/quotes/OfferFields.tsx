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

/**
 * Rows the form shows: what was posted (one more after «Añadir renglón», one less after «Quitar
 * renglón»), or the stored lines.
 */
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
 * operator's revision of an official quote. Without JavaScript «Añadir renglón» and «Quitar
 * renglón» post the form (intent `add_row`, `remove_row:N`) and the page comes back with one row
 * more or less and every other value kept; with JavaScript rows are added and removed in place and
 * the totals follow what is typed. The totals shown are
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
  validity = { hint: "Fecha límite de la oferta." },
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
  /** The validity's hint and latest day (an official quote's version: 30 days at most). */
  validity?: { hint: string; max?: string };
}) {
  // A stable key per row, so removing one keeps what was typed in the others (their inputs are
  // uncontrolled; names follow the position).
  const nextKey = useRef(initialRows);
  const [rowKeys, setRowKeys] = useState(() => Array.from({ length: initialRows }, (_, i) => i));
  const rows = rowKeys.length;
  // The totals of the values the form starts from (stored, or posted and sent back).
  const shown = parseOffer(
    offerDraftFrom({ get: (name) => field(name).defaultValue ?? "" }, initialRows),
    { today, defaultTaxRate },
  );
  const preview: Totals | null = shown.ok ? shown.offer : null;
  const [totals, setTotals] = useState(preview);
  const container = useRef<HTMLDivElement>(null);
  useEffect(
    () =>
      setRowKeys((keys) =>
        keys.length >= initialRows
          ? keys
          : [
              ...keys,
              ...Array.from({ length: initialRows - keys.length }, () => nextKey.current++),
            ],
      ),
    [initialRows],
  );
  const previewKey = JSON.stringify(preview);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the values, not the object
  useEffect(() => setTotals(preview), [previewKey]);

  /** With JavaScript, the preview follows every keystroke (the same arithmetic as the server). */
  function recompute(form: HTMLFormElement | null | undefined) {
    if (!form) return;
    const parsed = parseOffer(offerDraftFrom(new FormData(form)), { today, defaultTaxRate });
    setTotals(parsed.ok ? parsed.offer : null);
  }

  /** With JavaScript, a row leaves in place; focus goes to the row now in its place (or the last). */
  const removedAt = useRef<number | null>(null);
  function removeRow(index: number) {
    removedAt.current = index;
    setRowKeys((keys) => keys.filter((_, i) => i !== index));
  }
  useEffect(() => {
    if (removedAt.current === null) return;
    const at = Math.min(removedAt.current, rows - 1);
    removedAt.current = null;
    container.current?.querySelector<HTMLInputElement>(`#item-${at}-description`)?.focus();
    recompute(container.current?.closest("form"));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs after a removal re-renders
  }, [rowKeys]);

  return (
    <div
      ref={container}
      onInput={(event: FormEvent<HTMLDivElement>) =>
        recompute((event.target as HTMLInputElement).form)
      }
      className="space-y-5"
    >
      {/* The form's default button (Enter in a field) is the first submit button in it: this one,
          with no intent, sends the form as its main button (`data-main`, in the route) does, never
          «Quitar renglón 1», nor «Calcular totales», which came back without the attached file.
          tests/e2e/default-button.spec.ts holds every form with several submit buttons to this. */}
      <button type="submit" tabIndex={-1} aria-hidden="true" className="sr-only" />
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
          {rowKeys.map((key, i) => (
            <li key={key} className="rounded-md border border-slate-200 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm font-medium text-slate-700">Renglón {i + 1}</p>
                {rows > 1 ? (
                  <button
                    type="submit"
                    name="intent"
                    value={`remove_row:${i}`}
                    formNoValidate
                    className="btn-link text-sm"
                    onClick={(event) => {
                      event.preventDefault();
                      removeRow(i);
                    }}
                  >
                    Quitar renglón<span className="sr-only"> {i + 1}</span>
                  </button>
                ) : null}
              </div>
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
              setRowKeys((keys) => (keys.length < MAX_ITEMS ? [...keys, nextKey.current++] : keys));
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
          max={validity.max}
          hint={validity.hint}
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
