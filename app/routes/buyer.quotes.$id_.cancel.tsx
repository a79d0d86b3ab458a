import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { BuyerQuoteNotFound } from "~/components/NotFoundPanel";
import { BackLink } from "~/components/ui/BackLink";
import { FormErrors, TextAreaField } from "~/components/ui/Field";
import { STATUS_LABELS } from "~/domain/quote-status";
import { CANCEL_REASON_MAX } from "~/domain/request-dates";
import { cancelFields } from "~/domain/request-form";
import { requireRole } from "~/models/auth.server";
import { cancelRequest, getRequestChanges, PAID_MESSAGE } from "~/models/request-changes.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { invalidForm, notFound, respond } from "~/services/respond.server";
import { idFrom } from "~/utils/ids";
import { pageMeta } from "~/utils/meta";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data ? `Cancelar «${data.request.title}» · CotizaHub` : "Cotización no encontrada · CotizaHub",
    "Confirma la cancelación de tu solicitud e indica el motivo.",
  );

/** The confirmation step (a page, so cancelling works without JavaScript); nothing changes on GET. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const id = idFrom(params.id);
  const found = id ? await getRequestChanges(db, { requestId: id, buyerId: user.id }) : undefined;
  if (!found) throw notFound();
  const { request: quote, cancelRefusal } = found;
  return {
    request: { id: quote.id, title: quote.title, status: quote.status },
    refusal:
      cancelRefusal === "paid"
        ? PAID_MESSAGE
        : cancelRefusal === "status"
          ? `Esta solicitud ya no se puede cancelar: está en estado «${STATUS_LABELS[quote.status]}».`
          : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const id = idFrom(params.id);
  if (!id) throw notFound();
  const submission = parseWithZod(await readForm(request), { schema: cancelFields() });
  if (submission.status !== "success") return invalidForm(submission);
  const result = await cancelRequest(db, {
    requestId: id,
    buyerId: user.id,
    reason: submission.value.reason,
  });
  return respond(result, submission, ({ voidedPayments, partnersTold }) => ({
    to: paths.buyer.quote(id),
    toast: {
      type: "success",
      title: "Solicitud cancelada",
      description: `${voidedPayments > 0 ? "Anulamos el pago pendiente y avisamos" : "Avisamos"} al equipo de CotizaHub${partnersTold > 0 ? " y a los socios" : ""}.`,
    },
  }));
}

export default function CancelQuoteRequest() {
  const { request, refusal } = useLoaderData<typeof loader>();
  const form = serverForm(useActionData<typeof action>()?.result);
  const busy = useNavigation().state === "submitting";
  const detailUrl = paths.buyer.quote(request.id);
  return (
    <div className="max-w-xl">
      <BackLink to={detailUrl}>Volver a la solicitud</BackLink>
      <h1 className="page-title mt-3">Cancelar solicitud</h1>
      <p className="mt-1 wrap-anywhere text-slate-700">«{request.title}»</p>
      {refusal ? (
        <div
          role="status"
          className="card mt-6 border-amber-300 bg-amber-50 text-sm text-amber-900"
        >
          <p>{refusal}</p>
          <Link to={detailUrl} className="btn-secondary mt-4">
            Volver
          </Link>
        </div>
      ) : (
        <Form method="post" noValidate className="card mt-6 space-y-4">
          <p className="text-lg font-semibold text-slate-900">
            ¿Seguro que quieres cancelar esta solicitud?
          </p>
          <p className="text-sm text-slate-700">
            Los socios dejarán de cotizarla, se anulará cualquier pago pendiente y no podrás
            reactivarla. Esta acción no se puede deshacer.
          </p>
          <FormErrors title="No se pudo cancelar" errors={form.formErrors} />
          <TextAreaField
            label="Motivo de la cancelación"
            {...form.field("reason")}
            rows={4}
            required
            maxLength={CANCEL_REASON_MAX}
            hint="Lo verá el equipo de CotizaHub."
          />
          <div className="flex flex-wrap gap-3">
            <button type="submit" className="btn-danger" disabled={busy}>
              Cancelar solicitud
            </button>
            <Link to={detailUrl} className="btn-secondary">
              Volver
            </Link>
          </div>
        </Form>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <BuyerQuoteNotFound /> }} />;
}
