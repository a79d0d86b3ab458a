import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { idField } from "~/domain/validation";
import { assignPartners } from "~/models/quote-lifecycle.server";
import { adminQuoteAction, toQuoteDetail } from "~/models/admin-quote-action.server";
import { db } from "~/services/db.server";

export const loader = toQuoteDetail;

const CHOOSE = "Elige un socio para asignar.";

/** Assigns one or more partners to the request (pending → assigned the first time). */
export function action(args: ActionFunctionArgs) {
  return adminQuoteAction(args, {
    form: "assign",
    // `partner_id` once per chosen partner (a multiple select); one value reads as one partner.
    schema: z.object({
      partner_id: z.preprocess(
        (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
        z.array(idField(CHOOSE)).min(1, CHOOSE).max(50, "Asigna como máximo 50 socios a la vez."),
      ),
    }),
    run: ({ partner_id }, { requestId, adminId }) =>
      assignPartners(db, { requestId, partnerIds: partner_id, adminId }),
    done: (_, { invited, alreadyAssigned }) =>
      [
        invited === 1
          ? "Socio asignado a la solicitud."
          : `${invited} socios asignados a la solicitud.`,
        alreadyAssigned.length === 0
          ? ""
          : ` ${alreadyAssigned.join(", ")} ya ${alreadyAssigned.length === 1 ? "estaba asignado" : "estaban asignados"}.`,
      ].join(""),
  });
}
