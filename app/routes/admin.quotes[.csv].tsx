import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminRequestSortFrom, dateRangeFrom } from "~/domain/list-filters";
import { adminStatusLabel } from "~/domain/quote-status";
import { requireRole } from "~/models/auth.server";
import { deadlineFromUrl, exportAdminRequests, statusFromUrl } from "~/models/quote-request.server";
import { searchFromUrl } from "~/utils/like";
import { csvAmount, csvDate, csvResponse } from "~/services/csv.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";

/**
 * /admin/quotes.csv: the quotes list with its current filters (search, status, «Plazo», creation
 * days) and sort, every page of it, as a CSV file. Days that are not valid are ignored, as the
 * list ignores them.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const url = new URL(request.url);
  const filters = {
    q: searchFromUrl(url),
    status: statusFromUrl(url),
    deadline: deadlineFromUrl(url),
    range: dateRangeFrom(url.searchParams).range,
    sort: adminRequestSortFrom(url.searchParams),
  };
  const { currency } = await getSettings(db);
  const day = new Date().toISOString().slice(0, 10);
  return csvResponse(
    `cotizaciones-${day}.csv`,
    [
      "Solicitud",
      "Título",
      "Estado",
      "Comprador",
      "Empresa",
      "Correo",
      "Socios asignados",
      "Cotizaciones",
      `Monto (${currency})`,
      `Comisión (${currency})`,
      "Plazo para cotizar (UTC)",
      "Creada (UTC)",
      "Actualizada (UTC)",
    ],
    (async function* () {
      for await (const rows of exportAdminRequests(db, filters)) {
        yield rows.map((r) => [
          r.id,
          r.title,
          adminStatusLabel(r.status, r.partner_quote_count),
          `${r.buyer_first_name} ${r.buyer_last_name}`,
          r.buyer_company ?? "",
          r.buyer_email,
          r.assignment_count,
          r.partner_quote_count,
          csvAmount(r.total_amount_cents),
          csvAmount(r.commission_cents),
          csvDate(r.quote_deadline),
          csvDate(r.created_at),
          csvDate(r.updated_at),
        ]);
      }
    })(),
  );
}
