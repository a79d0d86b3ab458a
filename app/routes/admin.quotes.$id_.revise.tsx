import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { AdminQuoteNotFound } from "~/components/NotFoundPanel";
import { OfferFields, offerRowCount } from "~/components/quotes/OfferFields";
import { BackLink } from "~/components/ui/BackLink";
import { FormErrors, TextAreaField } from "~/components/ui/Field";
import { Section } from "~/components/ui/Section";
import { formatMoney } from "~/domain/money";
import {
  addDays,
  isExpired,
  OFFICIAL_VALIDITY_DAYS,
  officialValidity,
  offerFormValues,
} from "~/domain/offer";
import { revisionBlockedByPayments } from "~/domain/payments";
import { canReviseOfficialQuote } from "~/domain/quote-status";
import { requireRole } from "~/models/auth.server";
import { listOfficialQuoteVersions, reviseOfficialQuote } from "~/models/official-quote.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import {
  draftIntent,
  offerContext,
  offerDraftReply,
  offerSchema,
} from "~/services/offer-form.server";
import { invalidForm, notFound, respond } from "~/services/respond.server";
import { formatDate } from "~/utils/format";
import { idFrom } from "~/utils/ids";
import { pageMeta } from "~/utils/meta";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data
      ? `Nueva versión de la cotización oficial · ${data.title} · Administración · CotizaHub`
      : "Cotización no encontrada · CotizaHub",
    "Emite una nueva versión de la cotización oficial: renglones, impuestos, plazo y vigencia.",
  );

/**
 * The operator's revision (or renewal) of an official quote: version n+1 with a reason, starting
 * from the current version's terms and a fresh validity (30 days, or the partner's offer's end). The model refuses it once paid or
 * while a payment proof waits for review.
 */
async function loadCurrent(request: Request, rawId: string | undefined) {
  await requireRole(request, "admin");
  const id = idFrom(rawId);
  if (!id) throw notFound();
  const row = await db
    .selectFrom("quote_requests")
    .select(["id", "title", "status"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound();
  const versions = await listOfficialQuoteVersions(db, id);
  const current = versions.find((v) => v.superseded_at === null);
  return { request: row, current };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { request: row, current } = await loadCurrent(request, params.id);
  // The form is not offered while the payments block a revision (the action's model checks again).
  const [context, payments, offer] = await Promise.all([
    offerContext(db),
    db
      .selectFrom("payments")
      .select(["status", "submitted_at"])
      .where("quote_request_id", "=", row.id)
      .execute(),
    current?.partner_quote_id
      ? db
          .selectFrom("partner_quotes")
          .select("valid_until")
          .where("id", "=", current.partner_quote_id)
          .executeTakeFirst()
      : undefined,
  ]);
  // The partner's offer bounds the new version's validity as it bounded the first (DECISIONS §7),
  // while it lasts; a renewal after it lapsed starts from 30 days (the operator confirms it).
  const offerValidUntil =
    offer?.valid_until && offer.valid_until >= context.today ? offer.valid_until : null;
  return {
    id: row.id,
    title: row.title,
    blocked: revisionBlockedByPayments(payments)?.message ?? null,
    open: Boolean(current) && canReviseOfficialQuote(row.status),
    current: current ?? null,
    offerValidUntil: offer?.valid_until ?? null,
    expired: current ? isExpired(current.valid_until, context.today) : false,
    ...context,
    stored: current
      ? {
          ...offerFormValues({
            ...current,
            subtotalCents: current.subtotal_cents,
            taxRate: current.tax_rate,
            leadTimeDays: current.lead_time_days,
            paymentTerms: current.payment_terms,
            validUntil: officialValidity(context.today, offerValidUntil),
          }),
          reason: "",
        }
      : {},
  };
}

const REASON_MESSAGE = "Indica el motivo de la nueva versión.";

export async function action({ request, params }: ActionFunctionArgs) {
  const { request: row } = await loadCurrent(request, params.id);
  const adminId = (await requireRole(request, "admin")).id;
  const formData = await readForm(request);
  const intent = draftIntent(formData);
  if (intent) return offerDraftReply(formData, intent);
  const context = await offerContext(db);
  const submission = parseWithZod(formData, {
    schema: offerSchema(formData, context, {
      reason: z
        .string({ required_error: REASON_MESSAGE })
        .trim()
        .min(1, REASON_MESSAGE)
        .max(500, "El motivo admite hasta 500 caracteres."),
    }),
  });
  if (submission.status !== "success") return invalidForm(submission);
  const { offer, reason } = submission.value;
  const result = await reviseOfficialQuote(db, {
    requestId: row.id,
    adminId,
    reason,
    terms: {
      ...offer,
      validUntil: offer.validUntil ?? addDays(context.today, OFFICIAL_VALIDITY_DAYS),
    },
  });
  return respond(result, submission, ({ version }) => ({
    to: paths.admin.quote(row.id),
    toast: {
      type: "success",
      title: `Versión ${version} emitida`,
      description: "El comprador fue notificado de la nueva versión de la cotización oficial.",
    },
  }));
}

export default function ReviseOfficialQuote() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const form = serverForm(actionData?.result, d.stored as Record<string, string>);
  const busy = useNavigation().state === "submitting";
  const back = paths.admin.quote(d.id);
  return (
    <div className="max-w-3xl">
      <BackLink to={back}>Volver a la solicitud</BackLink>
      <h1 className="page-title mt-3">
        {d.expired ? "Renovar cotización oficial" : "Nueva versión de la cotización oficial"}
      </h1>
      <p className="mt-1 wrap-anywhere text-slate-700">Para «{d.title}»</p>
      <Section id="version" title="Datos de la nueva versión" className="mt-6">
        {!d.open || !d.current ? (
          <p role="status" className="mt-3 text-sm text-slate-700">
            Esta solicitud no admite una nueva versión de su cotización oficial (no tiene una, o ya
            fue pagada, rechazada o cancelada).
          </p>
        ) : d.blocked ? (
          <p role="status" className="mt-3 text-sm text-slate-700">
            {d.blocked}
          </p>
        ) : (
          <Form method="post" noValidate className="mt-4 space-y-5">
            <p className="text-sm text-slate-700">
              Versión vigente: {d.current.version} ·{" "}
              {formatMoney(d.current.final_amount_cents, d.current.currency)} · válida hasta el{" "}
              {formatDate(d.current.valid_until)}
              {d.expired ? " (vencida)" : ""}. La nueva versión la reemplaza; el comprador verá la
              anterior como solo lectura y el pago pendiente tomará el nuevo total.
            </p>
            {d.offerValidUntil ? (
              <p className="text-sm text-slate-700" data-testid="validez-oferta-socio">
                La oferta del socio en la que se basa vale hasta el {formatDate(d.offerValidUntil)}
                {d.offerValidUntil < d.today
                  ? ": ya venció; confirma con el socio la nueva validez."
                  : "; la nueva versión no debería valer más allá."}
              </p>
            ) : null}
            <FormErrors title="No se pudo emitir la versión" errors={form.formErrors} />
            <TextAreaField
              label="Motivo de la nueva versión"
              {...form.field("reason")}
              rows={2}
              maxLength={500}
              required
              placeholder={
                d.expired
                  ? "Renovación solicitada por el comprador"
                  : "Ajuste de precio del proveedor"
              }
            />
            <OfferFields
              field={form.field}
              rows={offerRowCount(actionData?.result, d.current.lines.length)}
              currency={d.current.currency}
              defaultTaxRate={d.defaultTaxRate}
              today={d.today}
              amountLabel={`Monto sin impuestos (${d.current.currency})`}
              itemsError={form.field("items").errors}
              validity={{
                hint: `Hasta ${OFFICIAL_VALIDITY_DAYS} días desde hoy.`,
                max: addDays(d.today, OFFICIAL_VALIDITY_DAYS),
              }}
            />
            <div className="flex flex-wrap gap-3">
              <button type="submit" className="btn-primary" disabled={busy} data-main>
                {busy ? "Emitiendo…" : "Emitir nueva versión"}
              </button>
              <Link to={back} className="btn-secondary">
                Cancelar
              </Link>
            </div>
          </Form>
        )}
      </Section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <AdminQuoteNotFound /> }} />;
}
