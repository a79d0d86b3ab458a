import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { Badge } from "~/components/ui/Badge";
import { PartnerRequestErrorBoundary } from "~/components/partner/RequestNotFound";
import { BackLink } from "~/components/ui/BackLink";
import { FileField, FormErrors, TextAreaField } from "~/components/ui/Field";
import { Section } from "~/components/ui/Section";
import { FILE_RULES, MAX_UPLOAD_MB } from "~/domain/files";
import { formatMoney } from "~/domain/money";
import { offerFormValues, rateToInput } from "~/domain/offer";
import { OfferFields, offerRowCount } from "~/components/quotes/OfferFields";
import {
  offerRefusal,
  offerClosedMessage,
  partnerAssignmentBadge,
  partnerSeesRequest,
} from "~/domain/assignment";
import { withUpload } from "~/domain/validation";
import { requirePartnerAssignment } from "~/models/partner-assignment.server";
import { submitPartnerQuote } from "~/models/quote-lifecycle.server";
import { db } from "~/services/db.server";
import { readUploadForm } from "~/services/form.server";
import { invalidForm, respond } from "~/services/respond.server";
import {
  draftIntent,
  notesField,
  offerContext,
  offerDraftReply,
  offerSchema,
} from "~/services/offer-form.server";
import { getSettings } from "~/services/settings.server";
import { fileLinks } from "~/services/signed-url.server";
import { discardStagedFile, storeUpload } from "~/services/storage.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data
      ? `${data.assignment.quote ? "Editar Cotización" : "Nueva Cotización"} · Socio · CotizaHub`
      : "Solicitud no encontrada · CotizaHub",
    "Envía o edita tu cotización para esta solicitud.",
  );

async function loadAssignment(request: Request, rawId: string | undefined) {
  const found = await requirePartnerAssignment(request, rawId);
  // Declined or withdrawn partners see only that the request is closed for them (on the detail).
  if (!partnerSeesRequest(found.assignment.state))
    throw redirect(paths.partner.assignment(found.assignment.request.id));
  return found;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, assignment } = await loadAssignment(request, params.id);
  const settings = await getSettings(db);
  const requestFile = await fileLinks(paths.files.request(assignment.request.id), user.id);
  // Why the form is not offered, if it is not (the action checks again inside its transaction).
  const { state, request: r } = assignment;
  const refusal = offerRefusal(state, r.status, r.quoteDeadline);
  const closedReason =
    refusal === null ? null : offerClosedMessage(refusal, state, r.status, r.quoteDeadline);
  const { today, defaultTaxRate } = await offerContext(db);
  const { quote } = assignment;
  return {
    assignment,
    requestFile: requestFile.download,
    closedReason,
    currency: settings.currency,
    minAmountCents: settings.minQuoteAmountCents,
    today,
    defaultTaxRate,
    // The form starts from the stored offer, or from the default tax rate for a new one.
    stored: (quote
      ? { ...offerFormValues(quote), notes: quote.notes ?? "" }
      : { tax_rate: rateToInput(defaultTaxRate) }) as Record<string, string>,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, assignment } = await loadAssignment(request, params.id);
  const upload = await readUploadForm(request, "file", FILE_RULES.partnerQuote);
  const intent = draftIntent(upload.formData);
  if (intent) {
    await discardStagedFile(upload.file);
    return offerDraftReply(upload.formData, intent, upload.file);
  }
  const context = await offerContext(db);
  const submission = parseWithZod(upload.formData, {
    schema: withUpload(offerSchema(upload.formData, context, notesField), "file", upload),
  });
  if (submission.status !== "success") {
    await discardStagedFile(upload.file);
    return invalidForm(submission, { unkeptFile: upload.file });
  }
  const { offer, notes } = submission.value;
  const result = await storeUpload(
    upload.file,
    (file) =>
      submitPartnerQuote(db, {
        requestId: assignment.request.id,
        partnerId: user.id,
        offer,
        notes,
        file,
      }),
    { replaced: (saved) => saved.replacedFileKey },
  );
  return respond(
    result,
    submission,
    ({ updated }) => ({
      to: paths.partner.assignments(),
      toast: {
        type: "success",
        title: updated ? "Cotización actualizada" : "Cotización enviada",
        description: `Tu cotización para «${assignment.request.title}» quedó registrada.`,
      },
    }),
    // A refusal did not keep the file: without JavaScript it is asked for again.
    { unkeptFile: upload.file },
  );
}

export default function PartnerQuoteForm() {
  const {
    assignment,
    requestFile,
    closedReason,
    currency,
    minAmountCents,
    today,
    defaultTaxRate,
    stored,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { request, buyer, quote } = assignment;
  const editing = Boolean(quote);
  // Before any submission the fields show the partner's current offer.
  const form = serverForm(actionData?.result, stored);
  const busy = useNavigation().state === "submitting";
  const detailUrl = paths.partner.assignment(request.id);
  const title = editing ? "Editar Cotización" : "Nueva Cotización";
  const badge = partnerAssignmentBadge(assignment.state, request.status);

  return (
    <div>
      <BackLink to={detailUrl}>Volver a la solicitud</BackLink>
      <h1 className="page-title mt-3">{title}</h1>
      <p className="mt-1 wrap-anywhere text-slate-700">Para «{request.title}»</p>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <Section
          id="formulario"
          title="Datos de la cotización"
          className="self-start lg:col-span-2"
        >
          {closedReason ? (
            <div
              role="status"
              className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
            >
              <p data-testid="oferta-cerrada">{closedReason}</p>
              <Link to={detailUrl} className="btn-secondary mt-4">
                Ver la solicitud
              </Link>
            </div>
          ) : (
            <Form noValidate method="post" encType="multipart/form-data" className="mt-4 space-y-5">
              <FormErrors errors={form.formErrors} />
              <OfferFields
                field={form.field}
                rows={offerRowCount(actionData?.result, quote?.lines.length ?? 0)}
                currency={currency}
                defaultTaxRate={defaultTaxRate}
                today={today}
                amountLabel={`Monto sin impuestos (${currency})`}
                itemsError={form.field("items").errors}
              />
              <p className="text-sm text-slate-600">
                Monto mínimo (sin impuestos): {formatMoney(minAmountCents, currency)}.
              </p>
              <TextAreaField
                label="Notas (opcional)"
                {...form.field("notes")}
                rows={4}
                maxLength={2000}
                placeholder="Marca, modelo, garantía, alcance de la oferta…"
              />
              <FileField
                label="Archivo de cotización (opcional)"
                {...form.field("file")}
                rule={FILE_RULES.partnerQuote}
                hint={`PDF, Word, Excel o imagen; máximo ${MAX_UPLOAD_MB} MB.${
                  quote?.fileName
                    ? ` Archivo actual: ${quote.fileName}. Si subes uno nuevo, lo reemplazará.`
                    : ""
                }`}
              />
              <div className="flex flex-wrap gap-3">
                <button type="submit" className="btn-primary" disabled={busy} data-main>
                  {busy ? "Enviando…" : editing ? "Actualizar Cotización" : "Enviar Cotización"}
                </button>
                <Link to={detailUrl} className="btn-secondary">
                  Cancelar
                </Link>
              </div>
            </Form>
          )}
        </Section>

        <aside aria-labelledby="resumen" className="card self-start">
          <h2 id="resumen" className="text-lg font-semibold">
            Resumen de la solicitud
          </h2>
          <div className="mt-3">
            <Badge tone={badge.tone}>{badge.label}</Badge>
          </div>
          <dl className="mt-4 space-y-3 text-sm">
            <div>
              <dt className="text-slate-600">Título</dt>
              <dd className="wrap-anywhere font-medium">{request.title}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Plazo para cotizar</dt>
              <dd className="font-medium">{formatDateTime(request.quoteDeadline)}</dd>
            </div>
            {request.description ? (
              <div>
                <dt className="text-slate-600">Descripción</dt>
                <dd className="line-clamp-6 whitespace-pre-line wrap-anywhere">
                  {request.description}
                </dd>
              </div>
            ) : null}
            <div>
              <dt className="text-slate-600">Cliente</dt>
              <dd className="font-medium">{buyer.company ?? "Empresa no especificada"}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Fecha de solicitud</dt>
              <dd>{formatDate(request.createdAt)}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Requerimientos</dt>
              <dd>
                <a href={requestFile} className="btn-link break-all" download>
                  {request.fileName}
                </a>
              </dd>
            </div>
            {quote ? (
              <div>
                <dt className="text-slate-600">Cotización actual (total)</dt>
                <dd className="font-semibold">{formatMoney(quote.amountCents, currency)}</dd>
              </div>
            ) : null}
          </dl>
        </aside>
      </div>
    </div>
  );
}

export const ErrorBoundary = PartnerRequestErrorBoundary;
