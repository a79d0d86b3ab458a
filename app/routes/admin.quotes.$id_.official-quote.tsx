import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parseAmountToCents } from "~/domain/money";
import { idField } from "~/domain/validation";
import { approvePartnerQuote, createManualOfficialQuote } from "~/models/quote-lifecycle.server";
import { adminQuoteAction, toQuoteDetail } from "~/models/admin-quote-action.server";
import { db } from "~/services/db.server";

export const loader = toQuoteDetail;

const AMOUNT_MESSAGE = "Ingresa un monto válido mayor que cero (por ejemplo 1234.50 o 1234,50).";

/**
 * Issues the official quote: from a partner's quote (`partner_quote_id`) or manual (`amount`,
 * DECISIONS §4). Either way the request becomes `quoted`.
 */
export function action(args: ActionFunctionArgs) {
  return adminQuoteAction(args, {
    form: "official-quote",
    schema: z
      .object({
        partner_quote_id: idField(
          "La cotización del socio no existe para esta solicitud.",
        ).optional(),
        amount: z.string().optional(),
        // The offer as the page showed it (its updated_at): a changed offer is not approved unseen.
        offer_seen_at: z.string().optional(),
      })
      .superRefine((input, ctx) => {
        if (input.partner_quote_id !== undefined) return;
        if ((parseAmountToCents(input.amount ?? "") ?? 0) <= 0)
          ctx.addIssue({ code: "custom", path: ["amount"], message: AMOUNT_MESSAGE });
      }),
    run: ({ partner_quote_id, amount, offer_seen_at }, { requestId, adminId }) =>
      partner_quote_id !== undefined
        ? approvePartnerQuote(db, {
            requestId,
            partnerQuoteId: partner_quote_id,
            adminId,
            offerSeenAt: offer_seen_at,
          })
        : createManualOfficialQuote(db, {
            requestId,
            amountCents: parseAmountToCents(amount ?? "")!,
            adminId,
          }),
    done: ({ partner_quote_id }) =>
      partner_quote_id !== undefined
        ? "Cotización del socio aprobada: se creó la cotización oficial."
        : "Cotización oficial creada.",
  });
}
