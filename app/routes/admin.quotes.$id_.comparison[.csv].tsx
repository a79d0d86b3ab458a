import type { LoaderFunctionArgs } from "@remix-run/node";
import { comparisonMarks, quantityToInput, rateToInput, utcDay } from "~/domain/offer";
import { requireRole } from "~/models/auth.server";
import { getRequestForAdmin } from "~/models/quote-request.server";
import { csvAmount, csvDate, csvResponse } from "~/services/csv.server";
import { db } from "~/services/db.server";
import { notFound } from "~/services/respond.server";
import { getSettings } from "~/services/settings.server";
import { idFrom } from "~/utils/ids";

/**
 * /admin/quotes/:id/comparison.csv: the offers of one request as the comparison shows them, one row
 * per offer (lowest total first) with its marks and its lines in one column.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const id = idFrom(params.id);
  const detail = id ? await getRequestForAdmin(db, id) : undefined;
  if (!detail) throw notFound();
  const { currency } = await getSettings(db);
  const offers = detail.partnerQuotes;
  const marks = comparisonMarks(offers, utcDay());
  const yesNo = (value: boolean) => (value ? "Sí" : "No");
  const rows = offers.map((o) => [
    o.company_name || `${o.first_name} ${o.last_name}`,
    `${o.first_name} ${o.last_name}`,
    o.email,
    csvAmount(o.subtotal_cents),
    rateToInput(o.tax_rate),
    csvAmount(o.tax_cents),
    csvAmount(o.quoted_amount_cents),
    o.lead_time_days ?? "",
    o.valid_until ?? "",
    o.payment_terms ?? "",
    o.lines
      .map(
        (l) =>
          `${l.description}: ${quantityToInput(l.quantityMilli)}${l.unit ? ` ${l.unit}` : ""} × ${csvAmount(l.unitPriceCents)} = ${csvAmount(l.lineCents)}`,
      )
      .join("; "),
    yesNo(marks.lowestTotal.has(o.id)),
    yesNo(marks.fastest.has(o.id)),
    yesNo(marks.expired.has(o.id)),
    yesNo(Boolean(o.is_selected)),
    o.notes ?? "",
    csvDate(o.updated_at),
  ]);
  return csvResponse(
    `comparacion-solicitud-${detail.request.id}.csv`,
    [
      "Socio",
      "Contacto",
      "Correo",
      `Subtotal (${currency})`,
      "IVA (%)",
      `IVA (${currency})`,
      `Total (${currency})`,
      "Plazo de entrega (días)",
      "Válida hasta",
      "Condiciones de pago",
      "Renglones",
      "Menor total",
      "Entrega más rápida",
      "Vencida",
      "Seleccionada",
      "Notas",
      "Actualizada (UTC)",
    ],
    (async function* () {
      yield rows;
    })(),
  );
}
