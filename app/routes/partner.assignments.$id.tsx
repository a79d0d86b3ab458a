import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { RequestDescription } from "~/components/quotes/RequestDescription";
import { BuyerContact } from "~/components/quotes/BuyerContact";
import { PartnerBadges } from "~/components/partner/PartnerBadges";
import { PartnerRequestErrorBoundary } from "~/components/partner/RequestNotFound";
import { BackLink } from "~/components/ui/BackLink";
import { Section } from "~/components/ui/Section";
import { formatMoney } from "~/domain/money";
import { canPartnerQuote, partnerMayEditQuote } from "~/domain/quote-status";
import { getAssignmentForPartner } from "~/models/partner-assignment.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { fileLinks } from "~/services/signed-url.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { idFrom } from "~/utils/ids";
import { paths } from "~/utils/paths";
import { notFound } from "~/services/respond.server";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data
      ? `${data.assignment.request.title} · Socio · CotizaHub`
      : "Solicitud no encontrada · CotizaHub",
    "Detalle de la solicitud asignada: requerimientos, archivo y tu cotización.",
  );

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "partner");
  const requestId = idFrom(params.id);
  const assignment = requestId
    ? await getAssignmentForPartner(db, { requestId, partnerId: user.id })
    : undefined;
  if (!assignment) throw notFound();
  const settings = await getSettings(db);
  const [requestFile, quoteFile] = await Promise.all([
    fileLinks(paths.files.request(assignment.request.id), user.id),
    assignment.quote?.hasFile
      ? fileLinks(paths.files.partnerQuote(assignment.quote.id), user.id)
      : Promise.resolve(null),
  ]);
  return { assignment, requestFile, quoteFile, currency: settings.currency };
}

export default function PartnerAssignmentDetail() {
  const { assignment, requestFile, quoteFile, currency } = useLoaderData<typeof loader>();
  const { request, buyer, quote } = assignment;
  const mayQuote = !quote && canPartnerQuote(request.status);
  const mayEdit =
    Boolean(quote) &&
    partnerMayEditQuote(request.status, quote && { is_selected: quote.isSelected });
  return (
    <div>
      <BackLink to={paths.partner.assignments()}>Volver a mis asignaciones</BackLink>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <h1 className="page-title break-words">{request.title}</h1>
        <PartnerBadges status={request.status} isSelected={quote ? quote.isSelected : null} />
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
                {quote.isSelected ? (
                  <p
                    className="mt-3 rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900"
                    role="status"
                  >
                    ¡Felicitaciones! Tu cotización fue seleccionada para esta solicitud.
                  </p>
                ) : null}
                <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
                  <div>
                    <dt className="text-slate-600">Monto cotizado</dt>
                    <dd className="text-xl font-bold text-slate-900" data-testid="quote-amount">
                      {formatMoney(quote.amountCents, currency)}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-slate-600">Última actualización</dt>
                    <dd className="font-medium">{formatDateTime(quote.updatedAt)}</dd>
                  </div>
                  <div className="sm:col-span-2">
                    <dt className="text-slate-600">Notas</dt>
                    <dd className="whitespace-pre-line break-words">
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
              {mayQuote ? (
                <Link to={paths.partner.quoteForm(request.id)} className="btn-primary">
                  Enviar Cotización
                </Link>
              ) : null}
              {mayEdit ? (
                <Link to={paths.partner.quoteForm(request.id)} className="btn-primary">
                  Editar Cotización
                </Link>
              ) : null}
              {!mayQuote && !mayEdit && !quote?.isSelected ? (
                <p className="text-sm text-slate-700">Esta solicitud ya no acepta cotizaciones.</p>
              ) : null}
              <Link to={paths.partner.assignments()} className="btn-secondary">
                Volver a la lista
              </Link>
            </div>
          </Section>
        </div>
      </div>
    </div>
  );
}

export const ErrorBoundary = PartnerRequestErrorBoundary;
