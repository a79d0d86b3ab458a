import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { QuoteLines } from "~/components/quotes/QuoteLines";
import { leadTimeLabel } from "~/domain/offer";
import type { AssignmentState, RequestStatus } from "../../db/schema";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { RequestDescription } from "~/components/quotes/RequestDescription";
import { BuyerContact } from "~/components/quotes/BuyerContact";
import { Badge } from "~/components/ui/Badge";
import { PartnerRequestErrorBoundary } from "~/components/partner/RequestNotFound";
import { BackLink } from "~/components/ui/BackLink";
import { Section } from "~/components/ui/Section";
import { formatMoney } from "~/domain/money";
import {
  canDecline,
  offerRefusal,
  offerClosedMessage,
  partnerAssignmentBadge,
  partnerSeesRequest,
  selectedOfferNotice,
} from "~/domain/assignment";
import { timeLeft } from "~/domain/request-dates";
import { requirePartnerAssignment } from "~/models/partner-assignment.server";
import { RequestThreads } from "~/components/threads/Thread";
import { loadRequestThreads } from "~/models/thread.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { fileLinks } from "~/services/signed-url.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data
      ? `${(data.closed ?? data.assignment).request.title} · Socio · CotizaHub`
      : "Solicitud no encontrada · CotizaHub",
    "Detalle de la solicitud asignada: requerimientos, archivo y tu cotización.",
  );

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, assignment } = await requirePartnerAssignment(request, params.id);
  if (!partnerSeesRequest(assignment.state)) {
    // Declined or withdrawn: only that the request is closed for them, none of its details.
    const { id, title, status } = assignment.request;
    return {
      closed: {
        request: { id, title, status },
        state: assignment.state,
        declineReason: assignment.declineReason,
        stateChangedAt: assignment.stateChangedAt,
      },
    } as const;
  }
  const settings = await getSettings(db);
  const [requestFile, quoteFile] = await Promise.all([
    fileLinks(paths.files.request(assignment.request.id), user.id),
    assignment.quote?.hasFile
      ? fileLinks(paths.files.partnerQuote(assignment.quote.id), user.id)
      : Promise.resolve(null),
  ]);
  const { state, request: r } = assignment;
  const refusal = offerRefusal(state, r.status, r.quoteDeadline);
  return {
    closed: null,
    assignment,
    requestFile,
    quoteFile,
    currency: settings.currency,
    // Decided on the server so the page shows what the action would accept.
    mayOffer: refusal === null,
    offerClosedMessage:
      refusal === null ? null : offerClosedMessage(refusal, state, r.status, r.quoteDeadline),
    mayDecline: canDecline(state, r.status),
    // Worded on the server so the page hydrates with the same text.
    deadlineLeft: refusal === null ? timeLeft(r.quoteDeadline) : null,
    threads: (await loadRequestThreads(db, user, assignment.request.id)) ?? [],
  };
}

export default function PartnerAssignmentDetail() {
  const data = useLoaderData<typeof loader>();
  if (data.closed) return <ClosedForPartner {...data.closed} />;
  const {
    assignment,
    requestFile,
    quoteFile,
    currency,
    mayOffer,
    offerClosedMessage,
    mayDecline,
    deadlineLeft,
  } = data;
  const { request, buyer, quote } = assignment;
  const badge = partnerAssignmentBadge(assignment.state, request.status);
  return (
    <div>
      <BackLink to={paths.partner.assignments()}>Volver a mis asignaciones</BackLink>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <h1 className="page-title wrap-anywhere">{request.title}</h1>
        <div className="shrink-0">
          <Badge tone={badge.tone}>{badge.label}</Badge>
        </div>
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Section id="solicitud" title="Detalles de la solicitud">
            <RequestDescription text={request.description} />
            <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-slate-600">Fecha de solicitud</dt>
                <dd className="font-medium">{formatDate(request.createdAt)}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Asignada el</dt>
                <dd className="font-medium">{formatDate(assignment.assignedAt)}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Plazo para cotizar</dt>
                <dd className="font-medium" data-testid="plazo">
                  {formatDateTime(request.quoteDeadline)}
                  {deadlineLeft ? (
                    <span className="block text-sm font-normal text-slate-700">{deadlineLeft}</span>
                  ) : null}
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Fecha requerida</dt>
                <dd className="font-medium">
                  {request.neededBy ? formatDate(request.neededBy) : "Sin fecha indicada"}
                </dd>
              </div>
              <div className="sm:col-span-2">
                <dt className="text-slate-600">Archivo de requerimientos</dt>
                <dd className="mt-1 flex flex-wrap items-center gap-3">
                  <span className="break-all font-medium">{request.fileName}</span>
                  <a href={requestFile.download} className="btn-secondary" download>
                    Descargar
                  </a>
                  <a
                    href={requestFile.open}
                    className="btn-secondary"
                    target="_blank"
                    rel="noreferrer"
                  >
                    Abrir
                  </a>
                </dd>
              </div>
            </dl>
          </Section>

          <Section id="mi-cotizacion" title="Mi cotización">
            {quote ? (
              <>
                {quote.isSelected ? <SelectedNotice status={request.status} /> : null}
                <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
                  <div>
                    <dt className="text-slate-600">Total cotizado (con IVA)</dt>
                    <dd className="text-xl font-bold text-slate-900" data-testid="quote-amount">
                      {formatMoney(quote.amountCents, currency)}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-slate-600">Última actualización</dt>
                    <dd className="font-medium">{formatDateTime(quote.updatedAt)}</dd>
                  </div>
                  <div>
                    <dt className="text-slate-600">Plazo de entrega</dt>
                    <dd className="font-medium">{leadTimeLabel(quote.leadTimeDays)}</dd>
                  </div>
                  <div>
                    <dt className="text-slate-600">Válida hasta</dt>
                    <dd className="font-medium">
                      {quote.validUntil ? formatDate(quote.validUntil) : "Sin fecha"}
                    </dd>
                  </div>
                  <div className="sm:col-span-2">
                    <dt className="text-slate-600">Condiciones de pago</dt>
                    <dd className="whitespace-pre-line wrap-anywhere">
                      {quote.paymentTerms ?? "No indicadas"}
                    </dd>
                  </div>
                  <div className="sm:col-span-2">
                    <dt className="text-slate-600">Detalle</dt>
                    <dd>
                      <QuoteLines
                        lines={quote.lines}
                        subtotalCents={quote.subtotalCents}
                        taxRate={quote.taxRate}
                        taxCents={quote.taxCents}
                        totalCents={quote.amountCents}
                        currency={currency}
                        testId="mi-oferta"
                      />
                    </dd>
                  </div>
                  <div className="sm:col-span-2">
                    <dt className="text-slate-600">Notas</dt>
                    <dd className="whitespace-pre-line wrap-anywhere">
                      {quote.notes || "Sin notas."}
                    </dd>
                  </div>
                  <div className="sm:col-span-2">
                    <dt className="text-slate-600">Archivo de cotización</dt>
                    <dd className="mt-1">
                      {quoteFile ? (
                        <span className="flex flex-wrap items-center gap-3">
                          <span className="break-all font-medium">{quote.fileName}</span>
                          <a href={quoteFile.download} className="btn-secondary" download>
                            Descargar
                          </a>
                        </span>
                      ) : (
                        "Sin archivo adjunto."
                      )}
                    </dd>
                  </div>
                </dl>
              </>
            ) : (
              <p className="mt-3 text-sm text-slate-700">Aún no has enviado una cotización.</p>
            )}
          </Section>
        </div>

        <div className="space-y-6">
          <Section id="cliente" title="Información del cliente">
            <BuyerContact
              buyer={buyer}
              nameLabel="Contacto"
              noPhone="No especificado"
              className="mt-4 space-y-3 text-sm"
              linkClassName="btn-link"
              telOf={(phone) => phone.replace(/[^\d+]/g, "")}
            />
          </Section>

          <Section id="acciones" title="Acciones">
            <div className="mt-4 flex flex-col gap-2">
              {mayOffer ? (
                <Link to={paths.partner.quoteForm(request.id)} className="btn-primary">
                  {quote ? "Editar Cotización" : "Enviar Cotización"}
                </Link>
              ) : (
                <p className="text-sm text-slate-700" data-testid="oferta-cerrada">
                  {offerClosedMessage}
                </p>
              )}
              {mayDecline ? (
                <Link to={paths.partner.decline(request.id)} className="btn-secondary">
                  Declinar solicitud
                </Link>
              ) : null}
              <Link to={paths.partner.assignments()} className="btn-secondary">
                Volver a la lista
              </Link>
            </div>
          </Section>
        </div>
      </div>
      <div className="mt-6">
        <RequestThreads threads={data.threads} requestId={request.id} viewerRole="partner" />
      </div>
    </div>
  );
}

/** What a partner who declined, or whose invitation was withdrawn, still sees of the request. */
function ClosedForPartner({
  request,
  state,
  declineReason,
  stateChangedAt,
}: {
  request: { id: number; title: string; status: RequestStatus };
  state: AssignmentState;
  declineReason: string | null;
  stateChangedAt: string | null;
}) {
  const badge = partnerAssignmentBadge(state, request.status);
  return (
    <div>
      <BackLink to={paths.partner.assignments()}>Volver a mis asignaciones</BackLink>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <h1 className="page-title wrap-anywhere">{request.title}</h1>
        <div className="shrink-0">
          <Badge tone={badge.tone}>{badge.label}</Badge>
        </div>
      </div>
      <Section id="cerrada" title="Solicitud cerrada para ti" className="mt-6 max-w-2xl">
        {state === "declined" ? (
          <p className="mt-3 text-sm text-slate-700">
            Declinaste esta solicitud{stateChangedAt ? ` el ${formatDateTime(stateChangedAt)}` : ""}
            .
            {declineReason ? (
              <span className="mt-2 block whitespace-pre-line wrap-anywhere">
                Tu motivo: {declineReason}
              </span>
            ) : null}
          </p>
        ) : (
          <p className="mt-3 text-sm text-slate-700">
            El equipo de CotizaHub retiró tu invitación a cotizar esta solicitud
            {stateChangedAt ? ` el ${formatDateTime(stateChangedAt)}` : ""}. No necesitas enviar una
            oferta.
          </p>
        )}
      </Section>
    </div>
  );
}

export const ErrorBoundary = PartnerRequestErrorBoundary;

function SelectedNotice({ status }: { status: RequestStatus }) {
  const notice = selectedOfferNotice(status);
  const colors =
    notice.tone === "green"
      ? "border-green-300 bg-green-50 text-green-900"
      : "border-slate-300 bg-slate-50 text-slate-800";
  return (
    <p
      className={`mt-3 rounded-md border p-3 text-sm ${colors}`}
      role="status"
      data-testid="seleccion"
    >
      {notice.text}
    </p>
  );
}
