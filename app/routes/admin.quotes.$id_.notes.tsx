import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { optionalText } from "~/domain/validation";
import { setAdminNotes } from "~/models/quote-lifecycle.server";
import { adminQuoteAction, toQuoteDetail } from "~/models/admin-quote-action.server";
import { db } from "~/services/db.server";

export const loader = toQuoteDetail;

/** Notes the buyer reads on their request. */
export function action(args: ActionFunctionArgs) {
  return adminQuoteAction(args, {
    form: "notes",
    schema: z.object({ admin_notes: optionalText(5000) }),
    run: ({ admin_notes }, { requestId }) => setAdminNotes(db, requestId, admin_notes),
    done: () => "Notas guardadas. El comprador las ve en su solicitud.",
  });
}
