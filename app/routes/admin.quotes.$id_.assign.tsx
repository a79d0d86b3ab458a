import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { idField } from "~/domain/validation";
import { assignPartner } from "~/models/quote-lifecycle.server";
import { adminQuoteAction, toQuoteDetail } from "~/models/admin-quote-action.server";
import { db } from "~/services/db.server";

export const loader = toQuoteDetail;

/** Assigns a partner to the request (pending → assigned the first time). */
export function action(args: ActionFunctionArgs) {
  return adminQuoteAction(args, {
    form: "assign",
    schema: z.object({ partner_id: idField("Elige un socio para asignar.") }),
    run: ({ partner_id }, { requestId, adminId }) =>
      assignPartner(db, { requestId, partnerId: partner_id, adminId }),
    done: () => "Socio asignado a la solicitud.",
  });
}
