import { Link } from "~/components/ui/Link";
import { StatusBadge } from "~/components/StatusBadge";
import { paymentReference } from "~/domain/payment-instructions";
import { paths } from "~/utils/paths";

/**
 * The request a search named by its number («12», «Solicitud N.º 12»: a transfer's reference),
 * above the text matches: those may be other requests that only mention the number.
 */
export function ReferenceMatch({
  request,
}: {
  request: {
    id: number;
    title: string;
    status: string;
    buyer_company: string | null;
    buyer_first_name: string;
    buyer_last_name: string;
  } | null;
}) {
  if (!request) return null;
  return (
    <section
      aria-label="Solicitud con ese número"
      data-testid="solicitud-por-numero"
      className="rounded-lg border border-brand-100 bg-brand-50 p-4 text-sm"
    >
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{paymentReference(request.id)}</span>
        <StatusBadge status={request.status} />
      </p>
      <p className="mt-1 wrap-anywhere">
        <Link to={paths.admin.quote(request.id)} className="font-medium text-brand-800 underline">
          {request.title}
        </Link>{" "}
        · {request.buyer_company || `${request.buyer_first_name} ${request.buyer_last_name}`}
      </p>
    </section>
  );
}
