import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { recordBuyerApproval } from "~/models/quote-lifecycle.server";
import { adminQuoteAction, toQuoteDetail } from "~/models/admin-quote-action.server";
import { db } from "~/services/db.server";

export const loader = toQuoteDetail;

const NOTE_MISSING = "Indica cómo aprobó el comprador (teléfono, correo, orden firmada…).";

/** The operator records the buyer's approval (quoted → approved), saying how it was given. */
export function action(args: ActionFunctionArgs) {
  return adminQuoteAction(args, {
    form: "buyer-approval",
    schema: z.object({
      note: z
        .string({ required_error: NOTE_MISSING })
        .trim()
        .min(1, NOTE_MISSING)
        .max(500, "La nota puede tener hasta 500 caracteres."),
    }),
    run: ({ note }, { requestId, adminId }) =>
      recordBuyerApproval(db, { requestId, adminId, note }),
    done: () => "Aprobación del comprador registrada. Le avisamos para que pague.",
  });
}
