import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { idField } from "~/domain/validation";
import { withdrawAssignment } from "~/models/sourcing-round.server";
import { adminQuoteAction, toQuoteDetail } from "~/models/admin-quote-action.server";
import { db } from "~/services/db.server";

export const loader = toQuoteDetail;

/** Takes back a partner's invitation while they have not offered. */
export function action(args: ActionFunctionArgs) {
  return adminQuoteAction(args, {
    form: "withdraw",
    schema: z.object({ partner_id: idField("Elige la asignación que quieres retirar.") }),
    run: ({ partner_id }, { requestId, adminId }) =>
      withdrawAssignment(db, { requestId, partnerId: partner_id, adminId }),
    done: () => "Asignación retirada. El socio fue notificado.",
  });
}
