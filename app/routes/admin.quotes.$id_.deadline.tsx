import type { ActionFunctionArgs } from "@remix-run/node";
import { deadlineFields } from "~/domain/request-form";
import { extendDeadline } from "~/models/sourcing-round.server";
import { adminQuoteAction, toQuoteDetail } from "~/models/admin-quote-action.server";
import { db } from "~/services/db.server";

export const loader = toQuoteDetail;

/** Moves the deadline for offers later; the partners still in the round are told. */
export function action(args: ActionFunctionArgs) {
  return adminQuoteAction(args, {
    form: "deadline",
    schema: deadlineFields(),
    run: ({ quote_deadline }, { requestId, adminId }) =>
      extendDeadline(db, { requestId, adminId, deadline: quote_deadline }),
    done: () => "Plazo ampliado. Los socios fueron notificados.",
  });
}
