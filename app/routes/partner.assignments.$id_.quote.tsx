import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { Badge } from "~/components/ui/Badge";
import { PartnerRequestErrorBoundary } from "~/components/partner/RequestNotFound";
import { BackLink } from "~/components/ui/BackLink";
import { Field, FileField, FormErrors, TextAreaField } from "~/components/ui/Field";
import { Section } from "~/components/ui/Section";
import { FILE_RULES, MAX_UPLOAD_MB } from "~/domain/files";
import { centsToInput, formatMoney, parseAmountToCents } from "~/domain/money";
import {
  offerRefusal,
  offerClosedMessage,
  partnerAssignmentBadge,
  partnerSeesRequest,
} from "~/domain/assignment";
import { optionalText, withUpload } from "~/domain/validation";
import { requirePartnerAssignment } from "~/models/partner-assignment.server";
import { submitPartnerQuote } from "~/models/quote-lifecycle.server";
import { db } from "~/services/db.server";
import { readUploadForm } from "~/services/form.server";
import { invalidForm, respond } from "~/services/respond.server";
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

const AMOUNT_MESSAGE = "Por favor ingresa un monto válido";

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function quoteSchema() {
  return z.object({
    amount: z
      .string({ required_error: AMOUNT_MESSAGE })
      .refine((value) => (parseAmountToCents(value) ?? 0) > 0, AMOUNT_MESSAGE)
      .transform((value) => parseAmountToCents(value)!),
    notes: optionalText(2000),
  });
}

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
  return {
    assignment,
    requestFile: requestFile.download,
    closedReason,
    currency: settings.currency,
    minAmountCents: settings.minQuoteAmountCents,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, assignment } = await loadAssignment(request, params.id);
  const upload = await readUploadForm(request, "file", FILE_RULES.partnerQuote);
  const submission = parseWithZod(upload.formData, {
    schema: withUpload(quoteSchema(), "file", upload),
  });
  if (submission.status !== "success") {
    await discardStagedFile(upload.file);
    return invalidForm(submission);
  }
  const { amount, notes } = submission.value;
  const result = await storeUpload(
    upload.file,
    (file) =>
      submitPartnerQuote(db, {
        requestId: assignment.request.id,
        partnerId: user.id,
        amountCents: amount,
        notes,
        file,
      }),
    { replaced: (saved) => saved.replacedFileKey },
  );
  return respond(result, submission, ({ updated }) => ({
    to: paths.partner.assignments(),
    toast: {
      type: "success",
      title: updated ? "Cotización actualizada" : "Cotización enviada",
      description: `Tu cotización para «${assignment.request.title}» quedó registrada.`,
    },
  }));
}

export default function PartnerQuoteForm() {
  const { assignment, requestFile, closedReason, currency, minAmountCents } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { request, buyer, quote } = assignment;
  const editing = Boolean(quote);
  const form = serverForm(actionData?.result);
  // Before any submission the fields show the partner's current quote.
  const initial = actionData?.result
    ? {}
    : { amount: quote ? centsToInput(quote.amountCents) : "", notes: quote?.notes ?? "" };
  const busy = useNavigation().state === "submitting";
  const detailUrl = paths.partner.assignment(request.id);
  const title = editing ? "Editar Cotización" : "Nueva Cotización";
  const badge = partnerAssignmentBadge(assignment.state, request.status);

  return (
    <div>
      <BackLink to={detailUrl}>Volver a la solicitud</BackLink>
      <h1 className="page-title mt-3">{title}</h1>
      <p className="mt-1 break-words text-slate-700">Para «{request.title}»</p>

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
              <Field
                label={`Monto (${currency})`}
                {...form.field("amount")}
                defaultValue={initial.amount ?? form.field("amount").defaultValue}
                type="text"
                inputMode="decimal"
                autoComplete="off"
                placeholder="0.00"
                required
                hint={`Usa punto o coma para los decimales (1234.50 o 1234,50). Monto mínimo: ${formatMoney(minAmountCents, currency)}.`}
              />
              <TextAreaField
                label="Notas (opcional)"
                {...form.field("notes")}
                defaultValue={initial.notes ?? form.field("notes").defaultValue}
                rows={5}
                maxLength={2000}
                placeholder="Condiciones, plazos de entrega, vigencia de la oferta…"
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
                <button type="submit" className="btn-primary" disabled={busy}>
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
              <dd className="break-words font-medium">{request.title}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Plazo para cotizar</dt>
              <dd className="font-medium">{formatDateTime(request.quoteDeadline)}</dd>
            </div>
            {request.description ? (
              <div>
                <dt className="text-slate-600">Descripción</dt>
                <dd className="line-clamp-6 whitespace-pre-line break-words">
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
                <dt className="text-slate-600">Cotización actual</dt>
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
