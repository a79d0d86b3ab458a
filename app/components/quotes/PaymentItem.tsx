import type { ReactNode } from "react";
import { Link } from "~/components/ui/Link";
import type { PaymentMethod, PaymentStatus } from "../../../db/schema";
import { PaymentStatusBadge } from "~/components/PaymentStatusBadge";
import { formatMoney } from "~/domain/money";
import { PAYMENT_METHOD_LABELS } from "~/domain/payments";

/**
 * One payment in a list: the request it pays (linked), amount and method, its status badge;
 * `children` below for what the viewer can do with it.
 */
export function PaymentItem({
  payment,
  href,
  currency,
  byline,
  amountNote,
  details,
  children,
}: {
  payment: {
    title: string;
    amount_cents: number;
    method: PaymentMethod | null;
    status: PaymentStatus;
  };
  href: string;
  currency: string;
  /** Who pays, above the amount. */
  byline?: ReactNode;
  /** Continues the amount line. */
  amountNote?: string;
  /** Below the amount line. */
  details?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <li className="card">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <Link to={href} className="font-semibold hover:underline">
            {payment.title}
          </Link>
          {byline}
          <p className="text-sm text-slate-700">
            <span className="font-semibold">{formatMoney(payment.amount_cents, currency)}</span>
            {payment.method ? ` · ${PAYMENT_METHOD_LABELS[payment.method]}` : ""}
            {amountNote}
          </p>
          {details}
        </div>
        <PaymentStatusBadge status={payment.status} />
      </div>
      {children}
    </li>
  );
}
