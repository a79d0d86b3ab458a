import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import type { z } from "zod";
import type { Result } from "~/domain/result";
import { idFrom } from "~/utils/ids";
import { paths } from "~/utils/paths";
import { requireRole } from "./auth.server";
import { readForm } from "~/services/form.server";
import { invalidBack, notFound, respondBack } from "~/services/respond.server";

/** The forms of the admin request detail, each posted to its own action route. */
export type AdminQuoteForm =
  | "assign"
  | "official-quote"
  | "buyer-approval"
  | "status"
  | "notes"
  | "withdraw"
  | "deadline"
  | "reopen";

/** The action routes are POST-only: a GET (a reload, a shared link) shows the detail. */
export function toQuoteDetail({ params }: LoaderFunctionArgs) {
  const id = idFrom(params.id);
  return redirect(id ? paths.admin.quote(id) : paths.admin.quotes());
}

/**
 * One action route of the admin request detail: guard → read → validate → model → back to the
 * detail with a toast, or with the errors flashed next to this form's fields (respondBack).
 */
export async function adminQuoteAction<S extends z.ZodTypeAny, T>(
  { request, params }: ActionFunctionArgs,
  {
    form,
    schema,
    run,
    done,
  }: {
    form: AdminQuoteForm;
    schema: S;
    run: (input: z.output<S>, ids: { requestId: number; adminId: number }) => Promise<Result<T>>;
    /** The success toast's text. */
    done: (input: z.output<S>, value: T) => string;
  },
) {
  const admin = await requireRole(request, "admin");
  const requestId = idFrom(params.id);
  if (!requestId) throw notFound();
  const back = paths.admin.quote(requestId);
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return invalidBack(back, form, submission);
  const input = submission.value as z.output<S>;
  const result = await run(input, { requestId, adminId: admin.id });
  return respondBack(back, form, submission, result, (value) => ({
    type: "success",
    title: "Éxito",
    description: done(input, value),
  }));
}
