import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isProofInReview, PAYMENT_METHOD_LABELS } from "~/domain/payments";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { BuyerQuoteNotFound } from "~/components/NotFoundPanel";
import { RequestDescription } from "~/components/quotes/RequestDescription";
import { ProgressTracker } from "~/components/quotes/ProgressTracker";
import { Timeline } from "~/components/quotes/Timeline";
import { StatusBadge } from "~/components/StatusBadge";
import { Badge } from "~/components/ui/Badge";
import { FormErrors } from "~/components/ui/Field";
import { DetailHeader } from "~/components/quotes/DetailHeader";
import { PaymentInstructions } from "~/components/quotes/PaymentInstructions";
import { EarlierVersions, OfficialQuoteSummary } from "~/components/quotes/OfficialQuoteSummary";
import { formatMoney } from "~/domain/money";
import { canBuyerApprove, canBuyerReject, canPay, canRequestRenewal } from "~/domain/quote-status";
import { formatRate, isExpired, utcDay } from "~/domain/offer";
import { listOfficialQuoteVersions, requestRenewal } from "~/models/official-quote.server";
import { buyerApproveQuote, buyerRejectQuote } from "~/models/quote-lifecycle.server";
import { getRequestForBuyer } from "~/models/quote-request.server";
import { getRequestChanges } from "~/models/request-changes.server";
import { timeLeft } from "~/domain/request-dates";
import type { RequestStatus } from "../../db/schema";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { intents, readForm } from "~/services/form.server";
import { invalidForm, notFound, respond } from "~/services/respond.server";
import { getSettings } from "~/services/settings.server";
import { fileLinks, versionPdfLinks } from "~/services/signed-url.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { idFrom } from "~/utils/ids";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import type { Toast } from "~/utils/toast";
import { optionalText } from "~/domain/validation";
import { PaymentStatusBadge } from "~/components/PaymentStatusBadge";
import { RequirementsFile } from "~/components/quotes/RequirementsFile";
import { RequestThreads } from "~/components/threads/Thread";
import { loadRequestThreads } from "~/models/thread.server";
import { Section } from "~/components/ui/Section";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    `${data?.request.title ?? "Cotización no encontrada"} · CotizaHub`,
    "Detalle de tu solicitud: cotizaciones, aprobación, pago e historial.",
  );

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const id = idFrom(params.id);
  const [detail, changes] = id
    ? await Promise.all([
        getRequestForBuyer(db, { id, buyerId: user.id }),
        getRequestChanges(db, { requestId: id, buyerId: user.id }),
      ])
    : [];
  if (!detail || !changes) throw notFound();
  const versions = await listOfficialQuoteVersions(db, detail.request.id);
  const [settings, attachment, pdf, versionPdfs] = await Promise.all([
    getSettings(db),
    fileLinks(paths.files.request(detail.request.id), user.id),
    detail.officialQuote ? fileLinks(paths.files.officialQuote(detail.request.id), user.id) : null,
    versionPdfLinks(versions, user.id),
  ]);
  const today = utcDay();
  const current = versions.find((v) => v.superseded_at === null) ?? null;
  const paid = detail.payments.some((p) => p.status === "confirmed");
  const { quote_deadline, needed_by, cancellation_reason } = changes.request;
  const open = OPEN_STATUSES.includes(detail.request.status);
  return {
    ...detail,
    currency: settings.currency,
    // Only while there is something to pay.
    paymentInstructions: canPay(detail.request.status) ? settings.paymentInstructions : null,
    attachment,
    pdf,
    paid,
    versions,
    versionPdfs,
    current,
    today,
    // Past its validity the official quote can be neither approved nor paid (DECISIONS §7).
    expired: current !== null && isExpired(current.valid_until, today),
    dates: {
      quoteDeadline: quote_deadline,
      neededBy: needed_by,
      // Worked out here, not in the browser, so the page reads the same with or without JavaScript.
      timeLeft: open ? (timeLeft(quote_deadline) ?? "Plazo vencido") : null,
    },
    cancellation: cancellation_reason
      ? { reason: cancellation_reason, at: changes.cancelledAt }
      : null,
    editable: changes.editRefusal === null,
    offersLockEdit: changes.editRefusal === "offers",
    cancellable: changes.cancelRefusal === null,
    threads: (await loadRequestThreads(db, user, detail.request.id)) ?? [],
  };
}

/** While partners may still offer, the detail counts down the deadline. */
const OPEN_STATUSES: readonly RequestStatus[] = ["pending", "assigned"];

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function schema() {
  return intents([
    // The version on the page: a later one is not approved unseen (none sent: the current one).
    z.object({
      intent: z.literal("approve"),
      version: z.coerce.number().int().optional().catch(undefined),
    }),
    z.object({ intent: z.literal("reject"), reason: optionalText(1000) }),
    z.object({ intent: z.literal("renew") }),
  ]);
}

const DONE: Record<"approve" | "reject" | "renew", Toast> = {
  renew: {
    type: "success",
    title: "Renovación solicitada",
    description:
      "Avisamos al equipo de CotizaHub: te enviaremos una nueva versión de la cotización.",
  },
  approve: {
    type: "success",
    title: "Cotización aprobada. Se ha creado el registro de pago.",
    description: "Sube tu comprobante de pago para completar la compra.",
  },
  reject: {
    type: "info",
    title: "Cotización rechazada",
    description: "Avisamos al equipo de CotizaHub.",
  },
};

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "buyer");
  const id = idFrom(params.id);
  if (!id) throw notFound();
  const submission = parseWithZod(await readForm(request), { schema: schema() });
  if (submission.status !== "success") return invalidForm(submission);
  const input = submission.value;
  const target = { requestId: id, buyerId: user.id };
  const result =
    input.intent === "approve"
      ? await buyerApproveQuote(db, { ...target, version: input.version })
      : input.intent === "renew"
        ? await requestRenewal(db, target)
        : await buyerRejectQuote(db, { ...target, reason: input.reason });
  return respond(result, submission, () => ({
    to: paths.buyer.quote(id),
    toast: DONE[input.intent],
  }));
}

export default function BuyerQuoteDetail() {
  const {
    request,
    current,
    versions,
    versionPdfs,
    today,
    expired,
    partnerQuotes,
    history,
    payments,
    currency,
    attachment,
    pdf,
    paid,
    dates,
    cancellation,
    editable,
    offersLockEdit,
    cancellable,
    threads,
    paymentInstructions,
  } = useLoaderData<typeof loader>();
  const { formErrors } = serverForm(useActionData<typeof action>()?.result);
  const busy = useNavigation().state === "submitting";
  const rejectable = canBuyerReject(request.status) && !paid;
  const proofInReview = payments.find(isProofInReview);
  return (
    <div className="space-y-6">
      <DetailHeader
        back={paths.buyer.quotes()}
        backLabel="Mis Cotizaciones"
        title={request.title}
        subtitle={`Solicitud #${request.id} · creada el ${formatDate(request.created_at)}`}
        badge={<StatusBadge status={request.status} />}
      />
      <FormErrors title="No se pudo completar la acción" errors={formErrors} />

      <section aria-labelledby="progreso" className="card">
        <h2 id="progreso" className="sr-only">
          Progreso
        </h2>
        <ProgressTracker status={request.status} reached={history.map((h) => h.to_status)} />
      </section>

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Section id="informacion" title="Información de la solicitud">
            <RequestDescription text={request.description} />
            <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-slate-600">Plazo para cotizar</dt>
                <dd className="font-medium" data-testid="plazo-para-cotizar">
                  {formatDateTime(dates.quoteDeadline)}
                </dd>
                {dates.timeLeft ? (
                  <dd className="text-slate-700" data-testid="tiempo-restante">
                    {dates.timeLeft}
                  </dd>
                ) : null}
              </div>
              <div>
                <dt className="text-slate-600">Fecha requerida</dt>
                <dd className="font-medium" data-testid="fecha-requerida">
                  {dates.neededBy ? formatDate(dates.neededBy) : "Sin fecha indicada"}
                </dd>
              </div>
            </dl>
            <RequirementsFile fileName={request.file_name} links={attachment} />
            {request.admin_notes ? (
              <div className="mt-4 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
                <p className="font-semibold">Notas del administrador</p>
                <p className="mt-1 whitespace-pre-line">{request.admin_notes}</p>
              </div>
            ) : null}
            {request.status === "cancelled" ? (
              <div
                className="mt-4 rounded-md border border-slate-300 bg-slate-50 p-3 text-sm text-slate-900"
                data-testid="cancelacion"
              >
                <p className="font-semibold">
                  Cancelada{cancellation?.at ? ` el ${formatDateTime(cancellation.at)}` : ""}
                </p>
                {cancellation ? (
                  <p className="mt-1 whitespace-pre-line">Motivo: {cancellation.reason}</p>
                ) : null}
              </div>
            ) : null}
            {request.status === "rejected" && request.rejection_reason ? (
              <div className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
                <p className="font-semibold">Motivo del rechazo</p>
                <p className="mt-1 whitespace-pre-line">{request.rejection_reason}</p>
              </div>
            ) : null}
          </Section>

          <Section id="oficial" title="Cotización oficial">
            {current && pdf ? (
              <>
                <OfficialQuoteSummary
                  requestId={request.id}
                  quote={current}
                  status={request.status}
                  pdf={pdf}
                  today={today}
                  viewer="buyer"
                />
                {paymentInstructions !== null && !paid && !expired && !proofInReview ? (
                  <PaymentInstructions
                    instructions={paymentInstructions}
                    requestId={request.id}
                    className="mt-4"
                  />
                ) : null}
                <EarlierVersions versions={versions} links={versionPdfs} />
              </>
            ) : (
              <p className="mt-3 text-sm text-slate-700">
                {request.status === "cancelled"
                  ? "La solicitud se canceló sin cotización oficial."
                  : "Aún no hay cotización oficial. Nuestros socios cotizan en 24-48 horas; te avisaremos por correo."}
              </p>
            )}
            {current ? null : <EarlierVersions versions={versions} links={versionPdfs} />}
          </Section>

          <Section id="socios" title="Cotizaciones de socios">
            {partnerQuotes.length === 0 ? (
              <p className="mt-3 text-sm text-slate-700">Todavía no hay cotizaciones de socios.</p>
            ) : (
              <ul className="mt-3 divide-y divide-slate-200">
                {partnerQuotes.map((pq) => (
                  <li
                    key={pq.id}
                    className="flex flex-wrap items-center justify-between gap-2 py-3"
                  >
                    <div>
                      <p className="font-medium">
                        {pq.first_name} {pq.last_name}
                        {pq.company_name ? ` · ${pq.company_name}` : ""}
                      </p>
                      {pq.notes ? <p className="text-sm text-slate-700">{pq.notes}</p> : null}
                    </div>
                    <div className="flex items-center gap-2">
                      <div className="text-right">
                        <p className="font-semibold">
                          {formatMoney(pq.quoted_amount_cents, currency)}
                        </p>
                        {/* Totals differ by their tax: the subtotal is what compares offers. */}
                        <p className="text-xs text-slate-600" data-testid="oferta-desglose">
                          Subtotal {formatMoney(pq.subtotal_cents, currency)} · IVA{" "}
                          {formatRate(pq.tax_rate)}
                        </p>
                      </div>
                      {pq.is_selected ? <Badge tone="green">Seleccionada</Badge> : null}
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </Section>

          {payments.length > 0 ? (
            <Section id="pagos" title="Pagos">
              <ul className="mt-3 divide-y divide-slate-200">
                {payments.map((p) => (
                  <li key={p.id} className="py-3 text-sm">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <span>
                        {formatMoney(p.amount_cents, currency)}
                        {p.method ? ` · ${PAYMENT_METHOD_LABELS[p.method]}` : ""}
                        {p.submitted_at
                          ? ` · enviado el ${formatDateTime(p.submitted_at)}`
                          : p.status === "pending"
                            ? " · esperando comprobante"
                            : ""}
                      </span>
                      <PaymentStatusBadge status={p.status} />
                    </div>
                    {p.status === "rejected" ? (
                      <p className="mt-1 text-red-800">
                        {p.rejection_reason
                          ? `Motivo: ${p.rejection_reason.replace(/\.$/, "")}. `
                          : ""}
                        {/* A payment voided by a cancellation or a rejection has nothing to retry. */}
                        {canPay(request.status)
                          ? "Contacta al administrador o envía un nuevo comprobante."
                          : null}
                      </p>
                    ) : null}
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}
        </div>

        <div className="space-y-6">
          <Section id="acciones" title="Acciones" className="space-y-3">
            {editable ? (
              <Link to={paths.buyer.editQuote(request.id)} className="btn-secondary w-full">
                Editar solicitud
              </Link>
            ) : offersLockEdit ? (
              <p className="text-sm text-slate-700">
                Ya hay ofertas de socios: la solicitud ya no se puede editar.
              </p>
            ) : null}
            {expired && current && !paid && canRequestRenewal(request.status) ? (
              <div
                role="status"
                className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
                data-testid="cotizacion-vencida"
              >
                <p>
                  La cotización oficial venció el {formatDate(current.valid_until)}: ya no puede
                  aprobarse ni pagarse.
                </p>
                {current.renewal_requested_at ? (
                  <p className="mt-2 font-semibold">
                    Renovación solicitada el {formatDateTime(current.renewal_requested_at)}. Te
                    avisaremos cuando emitamos la nueva versión.
                  </p>
                ) : (
                  <Form method="post" className="mt-3">
                    <input type="hidden" name="intent" value="renew" />
                    <button type="submit" className="btn-primary w-full" disabled={busy}>
                      Solicitar renovación
                    </button>
                  </Form>
                )}
              </div>
            ) : null}
            {canBuyerApprove(request.status) && !expired ? (
              <Form method="post">
                <input type="hidden" name="intent" value="approve" />
                {current ? <input type="hidden" name="version" value={current.version} /> : null}
                <button type="submit" className="btn-primary w-full" disabled={busy}>
                  Aprobar cotización
                </button>
              </Form>
            ) : null}
            {canPay(request.status) && !paid && !expired && proofInReview ? (
              <div
                role="status"
                className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
              >
                <p>
                  Tu comprobante del {formatDateTime(proofInReview.submitted_at)} está en revisión.
                  Te avisaremos en cuanto lo validemos.
                </p>
                <Link
                  to={paths.buyer.newPayment(request.id)}
                  className="btn-link mt-2 inline-block"
                >
                  Reemplazar comprobante
                </Link>
              </div>
            ) : canPay(request.status) && !paid && !expired ? (
              <Link to={paths.buyer.newPayment(request.id)} className="btn-primary w-full">
                Pagar
              </Link>
            ) : null}
            {rejectable ? (
              <details className="rounded-md border border-slate-200 p-3">
                <summary className="cursor-pointer text-sm font-semibold text-red-800">
                  Rechazar
                </summary>
                <Form method="post" className="mt-3 space-y-3">
                  <input type="hidden" name="intent" value="reject" />
                  <div>
                    <label htmlFor="reason" className="label">
                      Motivo (opcional)
                    </label>
                    <textarea
                      id="reason"
                      name="reason"
                      rows={3}
                      maxLength={1000}
                      className="input"
                    />
                  </div>
                  <button type="submit" className="btn-danger w-full" disabled={busy}>
                    Rechazar cotización
                  </button>
                </Form>
              </details>
            ) : null}
            {cancellable ? (
              <Link to={paths.buyer.cancelQuote(request.id)} className="btn-secondary w-full">
                Cancelar solicitud
              </Link>
            ) : null}
            <Link to={paths.buyer.newQuote()} className="btn-secondary w-full">
              Nueva cotización
            </Link>
            <Link to={paths.buyer.payments()} className="btn-secondary w-full">
              Ver pagos
            </Link>
          </Section>
          <section aria-labelledby="historial" className="card">
            <h2 id="historial" className="mb-3 text-lg font-semibold">
              Historial
            </h2>
            <Timeline entries={history} />
          </section>
        </div>
      </div>
      <RequestThreads threads={threads} requestId={request.id} viewerRole="buyer" />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <BuyerQuoteNotFound /> }} />;
}
