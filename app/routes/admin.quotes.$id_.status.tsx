import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { REQUEST_STATUSES, STATUS_LABELS } from "~/domain/quote-status";
import { optionalText } from "~/domain/validation";
import { adminSetStatus } from "~/models/quote-lifecycle.server";
import { adminQuoteAction, toQuoteDetail } from "~/models/admin-quote-action.server";
import { db } from "~/services/db.server";

export const loader = toQuoteDetail;

/** The operator's override: any status, with an optional note for the history (see adminSetStatus). */
export function action(args: ActionFunctionArgs) {
  return adminQuoteAction(args, {
    form: "status",
    schema: z.object({
      status: z.enum(REQUEST_STATUSES, {
        errorMap: () => ({ message: "Elige un estado válido." }),
      }),
      note: optionalText(500),
    }),
    run: ({ status, note }, { requestId, adminId }) =>
      adminSetStatus(db, { requestId, status, adminId, note }),
    done: ({ status }, { changed }) =>
      changed
        ? `Estado actualizado a «${STATUS_LABELS[status]}».`
        : "Nota agregada al historial; el estado no cambió.",
  });
}
