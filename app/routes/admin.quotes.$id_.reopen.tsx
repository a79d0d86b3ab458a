import type { ActionFunctionArgs } from "@remix-run/node";
import { deadlineFields } from "~/domain/request-form";
import { reopenRequest } from "~/models/sourcing-round.server";
import { adminQuoteAction, toQuoteDetail } from "~/models/admin-quote-action.server";
import { db } from "~/services/db.server";

export const loader = toQuoteDetail;

/** A new round for a rejected request: back to `assigned` with a new deadline. */
export function action(args: ActionFunctionArgs) {
  return adminQuoteAction(args, {
    form: "reopen",
    schema: deadlineFields(),
    run: ({ quote_deadline }, { requestId, adminId }) =>
      reopenRequest(db, { requestId, adminId, deadline: quote_deadline }),
    done: () => "Solicitud reabierta para una nueva ronda. Los socios fueron notificados.",
  });
}
