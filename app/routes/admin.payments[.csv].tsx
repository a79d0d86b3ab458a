import type { LoaderFunctionArgs } from "@remix-run/node";
import { ADMIN_PAYMENT_SORTS, dateRangeFrom, sortFrom } from "~/domain/list-filters";
import { PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS } from "~/domain/payments";
import { requireRole } from "~/models/auth.server";
import { exportAdminPayments, paymentStatusFromUrl } from "~/models/payment.server";
import { searchFromUrl } from "~/utils/like";
import { csvAmount, csvDate, csvResponse } from "~/services/csv.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";

/**
 * /admin/payments.csv: the payments list with its current filters (search, status, days sent) and
 * sort, every page of it, as a CSV file.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const url = new URL(request.url);
  const filters = {
    q: searchFromUrl(url),
    status: paymentStatusFromUrl(url),
    range: dateRangeFrom(url.searchParams).range,
    sort: sortFrom(url.searchParams.get("orden"), ADMIN_PAYMENT_SORTS),
  };
  const { currency } = await getSettings(db);
  const day = new Date().toISOString().slice(0, 10);
  return csvResponse(
    `pagos-${day}.csv`,
    [
      "Pago",
      "Solicitud",
      "Título",
      "Comprador",
      "Empresa",
      "Correo",
      `Monto (${currency})`,
      `Comisión (${currency})`,
      "Método",
      "Estado",
      "Comprobante enviado (UTC)",
      "Confirmado (UTC)",
      "Motivo del rechazo",
      "Creado (UTC)",
    ],
    (async function* () {
      for await (const rows of exportAdminPayments(db, filters)) {
        yield rows.map((p) => [
          p.id,
          p.quote_request_id,
          p.title,
          `${p.buyer_first_name} ${p.buyer_last_name}`,
          p.buyer_company ?? "",
          p.buyer_email,
          csvAmount(p.amount_cents),
          csvAmount(p.commission_amount_cents),
          p.method ? PAYMENT_METHOD_LABELS[p.method] : "",
          PAYMENT_STATUS_LABELS[p.status],
          csvDate(p.submitted_at),
          csvDate(p.confirmed_at),
          p.rejection_reason ?? "",
          csvDate(p.created_at),
        ]);
      }
    })(),
  );
}
