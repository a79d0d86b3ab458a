import type { ReactNode } from "react";
import { Badge } from "~/components/ui/Badge";
import { formatMoney } from "~/domain/money";
import { isExpired, leadTimeLabel, type OfferLine } from "~/domain/offer";
import type { Tone } from "~/domain/tones";
import type { RequestStatus } from "../../../db/schema";
import { formatDate, formatNumber } from "~/utils/format";
import { QuoteLines } from "./QuoteLines";

interface Version {
  id: number;
  version: number;
  final_amount_cents: number;
  subtotal_cents: number;
  tax_rate: number;
  tax_cents: number;
  lead_time_days: number | null;
  payment_terms: string | null;
  commission_percentage: number;
  commission_amount_cents: number;
  currency: string;
  valid_until: string;
  revision_reason: string | null;
  superseded_at: string | null;
  created_at: string;
  lines: OfferLine[];
}

/**
 * Where the official quote stands: its validity while the buyer can still decide, else what became
 * of it (a rejected quote is not "Vigente" however far its date is).
 */
function standing(status: RequestStatus, expired: boolean): { label: string; tone: Tone } {
  if (status === "approved") return { label: "Aprobada", tone: "green" };
  if (status === "paid") return { label: "Pagada", tone: "green" };
  if (status === "rejected") return { label: "Rechazada", tone: "red" };
  if (status === "cancelled") return { label: "Solicitud cancelada", tone: "gray" };
  return expired ? { label: "Vencida", tone: "red" } : { label: "Vigente", tone: "green" };
}

/**
 * The current official quote as the buyer and the admins see it: version, lines, subtotal, tax,
 * total, commission (on the subtotal), lead time, terms, validity (marked when past) and its PDF.
 */
export function OfficialQuoteSummary({
  requestId,
  quote,
  status,
  pdf,
  today,
  viewer,
  children,
}: {
  /**
   * The buyer reads the commission as part of the total that the partner pays (DECISIONS §9); the
   * operator reads it as the desk's figure.
   */
  viewer: "buyer" | "admin";
  /** The quote's number: every version of a request's official quote carries the request's. */
  requestId: number;
  quote: Version;
  /** The request's status: once decided, the badge says what became of the quote. */
  status: RequestStatus;
  pdf: { download: string; open: string };
  /** UTC day the page was rendered for (from the loader, so server and browser agree). */
  today: string;
  /** Further actions beside the PDF links. */
  children?: ReactNode;
}) {
  const badge = standing(status, isExpired(quote.valid_until, today));
  return (
    <>
      <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-700">
        {/* The number its PDF carries, so a buyer and an operator can name the same document. */}
        <span data-testid="numero-oficial">N.º {requestId}</span>
        <span aria-hidden="true">·</span>
        <span data-testid="version-oficial">Versión {quote.version}</span>
        <Badge tone={badge.tone}>{badge.label}</Badge>
      </p>
      {quote.revision_reason ? (
        <p className="mt-1 wrap-anywhere text-sm text-slate-700">
          Motivo de la versión: {quote.revision_reason}
        </p>
      ) : null}
      <dl className="mt-3 grid gap-3 sm:grid-cols-3">
        {/* A row of its own: a six-figure total at this size needs more than a third of the card. */}
        <div className="sm:col-span-3">
          <dt className="text-sm text-slate-600">Total</dt>
          <dd className="whitespace-nowrap text-2xl font-bold" data-testid="monto-oficial">
            {formatMoney(quote.final_amount_cents, quote.currency)}
          </dd>
          {viewer === "buyer" ? (
            <dd className="mt-1 text-sm text-slate-700">
              Incluye la comisión de intermediación de CotizaHub, a cargo del socio:{" "}
              <span className="whitespace-nowrap font-semibold" data-testid="comision-oficial">
                {formatMoney(quote.commission_amount_cents, quote.currency)}
              </span>{" "}
              ({formatNumber(quote.commission_percentage, 3)} % del subtotal).
            </dd>
          ) : null}
        </div>
        {viewer === "admin" ? (
          <div>
            <dt className="text-sm text-slate-600">
              Comisión ({formatNumber(quote.commission_percentage, 3)} % del subtotal)
            </dt>
            <dd className="font-semibold" data-testid="comision-oficial">
              {formatMoney(quote.commission_amount_cents, quote.currency)}
            </dd>
          </div>
        ) : null}
        <div>
          <dt className="text-sm text-slate-600">Válida hasta</dt>
          <dd className="font-semibold" data-testid="vigencia-oficial">
            {formatDate(quote.valid_until)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">Plazo de entrega</dt>
          <dd className="font-semibold" data-testid="entrega-oficial">
            {leadTimeLabel(quote.lead_time_days)}
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-sm text-slate-600">Condiciones de pago</dt>
          <dd className="whitespace-pre-line wrap-anywhere font-semibold">
            {quote.payment_terms ?? "No indicadas"}
          </dd>
        </div>
      </dl>
      <QuoteLines
        lines={quote.lines}
        subtotalCents={quote.subtotal_cents}
        taxRate={quote.tax_rate}
        taxCents={quote.tax_cents}
        totalCents={quote.final_amount_cents}
        currency={quote.currency}
        testId="oficial"
      />
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

/** Earlier versions of the official quote, read-only, each with its PDF. */
export function EarlierVersions({
  versions,
  links,
}: {
  versions: Version[];
  links: Record<number, string>;
}) {
  const earlier = versions.filter((v) => v.superseded_at !== null);
  if (earlier.length === 0) return null;
  return (
    <div className="mt-5 border-t border-slate-200 pt-4">
      <h3 className="text-sm font-semibold">Versiones anteriores</h3>
      <ul className="mt-2 space-y-2 text-sm" data-testid="versiones-anteriores">
        {earlier.map((v) => (
          <li key={v.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <span>
              Versión {v.version} · {formatMoney(v.final_amount_cents, v.currency)} · emitida el{" "}
              {formatDate(v.created_at)}
              {v.revision_reason ? ` · ${v.revision_reason}` : ""}
            </span>
            {links[v.id] ? (
              <a href={links[v.id]} className="text-brand-700 hover:underline" download>
                PDF de la versión {v.version}
              </a>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
