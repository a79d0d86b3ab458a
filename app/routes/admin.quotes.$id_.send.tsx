import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { sendOfficialQuoteToBuyer } from "~/models/quote-lifecycle.server";
import { adminQuoteAction, toQuoteDetail } from "~/models/admin-quote-action.server";
import { db } from "~/services/db.server";

export const loader = toQuoteDetail;

/** "Enviar a Comprador": quoted → approved, with the buyer's pending payment. */
export function action(args: ActionFunctionArgs) {
  return adminQuoteAction(args, {
    form: "send",
    schema: z.object({}),
    run: (_, { requestId, adminId }) => sendOfficialQuoteToBuyer(db, { requestId, adminId }),
    done: () => "Cotización enviada al comprador para pago.",
  });
}
