import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { AdminQuoteNotFound } from "~/components/NotFoundPanel";
import { PaymentStatusBadge } from "~/components/PaymentStatusBadge";
import { RequestDescription } from "~/components/quotes/RequestDescription";
import { BuyerContact } from "~/components/quotes/BuyerContact";
import { DetailHeader } from "~/components/quotes/DetailHeader";
import { EarlierVersions, OfficialQuoteSummary } from "~/components/quotes/OfficialQuoteSummary";
import { OfferComparison } from "~/components/quotes/OfferComparison";
import { isExpired } from "~/domain/offer";
import { listOfficialQuoteVersions } from "~/models/official-quote.server";
import { RequirementsFile } from "~/components/quotes/RequirementsFile";
import { Timeline } from "~/components/quotes/Timeline";
import { RequestThreads } from "~/components/threads/Thread";
import { loadRequestThreads } from "~/models/thread.server";
import { StatusBadge } from "~/components/StatusBadge";
import { Badge } from "~/components/ui/Badge";
import { Field, FormErrors, SelectField, TextAreaField } from "~/components/ui/Field";
import { Section } from "~/components/ui/Section";
import {
  canWithdraw,
  closedAccountLabel,
  operatorAssignmentBadge,
  roundWithoutPartners,
} from "~/domain/assignment";
import { defaultDeadline, toDeadlineInput } from "~/domain/request-dates";
import { formatMoney } from "~/domain/money";
import { PAYMENT_METHOD_LABELS, revisionBlockedByPayments } from "~/domain/payments";
import {
  adminStatusLabel,
  canApprovePartnerQuote,
  canAssignPartner,
  canCreateManualQuote,
  canExtendDeadline,
  canReopen,
  canReviseOfficialQuote,
  canRecordBuyerApproval,
  REQUEST_STATUSES,
  STATUS_LABELS,
} from "~/domain/quote-status";
import { getRequestForAdmin, listAssignablePartners } from "~/models/quote-request.server";
import type { AdminQuoteForm } from "~/models/admin-quote-action.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { notFound, readFormFlash } from "~/services/respond.server";
import { getSettings } from "~/services/settings.server";
import { fileLinks, versionPdfLinks } from "~/services/signed-url.server";
import { formatDate, formatDateTime, formatNumber } from "~/utils/format";
import { idFrom } from "~/utils/ids";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    `${data?.request.title ?? "Cotización no encontrada"} · Administración · CotizaHub`,
    "Detalle de la solicitud: asignación de socios, cotizaciones, cotización oficial e historial.",
  );

/**
 * The admin request detail. Its forms post to one action route each (/admin/quotes/:id/assign,
 * /official-quote, /buyer-approval, /status, /notes), which come back here with a toast or with the refused
 * form's errors in a one-minute flash cookie (services/respond.server.ts, respondBack) that this
 * loader reads, so a field error shows next to its field with or without JavaScript.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const id = idFrom(params.id);
  const detail = id ? await getRequestForAdmin(db, id) : undefined;
  if (!detail) throw notFound();
  const links = (path: string) => fileLinks(path, admin.id);
  const versions = await listOfficialQuoteVersions(db, detail.request.id);
  const [settings, partners, attachment, pdf, quoteFiles, proofFiles, flash, versionPdfs] =
    await Promise.all([
      getSettings(db),
      // The partner picker shows only while a partner may be assigned (500 options otherwise sent).
      canAssignPartner(detail.request.status) ? listAssignablePartners(db, detail.request.id) : [],
      links(paths.files.request(detail.request.id)),
      detail.officialQuote ? links(paths.files.officialQuote(detail.request.id)) : null,
      Promise.all(
        detail.partnerQuotes
          .filter((pq) => pq.file_key)
          .map(async (pq) => [pq.id, await links(paths.files.partnerQuote(pq.id))] as const),
      ),
      Promise.all(
        detail.payments
          .filter((p) => p.proof_key)
          .map(async (p) => [p.id, await links(paths.files.payment(p.id))] as const),
      ),
      readFormFlash(request),
      versionPdfLinks(versions, admin.id),
    ]);
  return data(
    {
      ...detail,
      versions,
      versionPdfs,
      partners,
      attachment,
      pdf,
      quoteFiles: Object.fromEntries(quoteFiles),
      proofFiles: Object.fromEntries(proofFiles),
      currency: settings.currency,
      commission: settings.defaultCommission,
      flashed: flash.flashed,
      // The page compares dates with the server's clock, so server and browser render the same.
      now: new Date().toISOString(),
      defaultDeadline: toDeadlineInput(defaultDeadline(settings.quoteDays)),
      threads: (await loadRequestThreads(db, admin, detail.request.id)) ?? [],
    },
    { headers: flash.setCookie ? { "Set-Cookie": flash.setCookie } : undefined },
  );
}

type Detail = ReturnType<typeof useLoaderData<typeof loader>>;

/** The errors and typed values of `form`, if it was the one refused. */
function useFlashedForm(d: Detail, form: AdminQuoteForm) {
  return {
    ...serverForm(d.flashed?.form === form ? d.flashed.result : undefined),
    code: d.flashed?.form === form ? d.flashed.code : undefined,
  };
}

/** A form of this page, posted to its own action route. */
function ActionForm({
  to,
  className,
  children,
}: {
  to: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" action={to} className={className}>
      {children}
    </Form>
  );
}

export default function AdminQuoteDetail() {
  const d = useLoaderData<typeof loader>();
  const { request } = d;
  const approval = useFlashedForm(d, "buyer-approval");
  return (
    <div className="space-y-6">
      <DetailHeader
        back={paths.admin.quotes()}
        backLabel="Cotizaciones"
        title={request.title}
        subtitle={`Solicitud #${request.id} · creada el ${formatDateTime(request.created_at)}`}
        badge={
          <StatusBadge
            status={request.status}
            label={adminStatusLabel(request.status, d.partnerQuotes.length)}
          />
        }
      />
      <FormErrors
        title="No se pudo registrar la aprobación del comprador"
        errors={approval.formErrors}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <RequestSection d={d} />
          <PartnerQuotesSection d={d} />
          <OfficialQuoteSection d={d} />
          <PaymentsSection d={d} />
          <RequestThreads threads={d.threads} requestId={request.id} viewerRole="admin" />
        </div>
        <div className="space-y-6">
          <RoundSection d={d} />
          <AssignSection d={d} />
          <StatusSection d={d} />
          <NotesSection d={d} />
          <Section id="historial" title="Historial">
            <div className="mt-3">
              <Timeline entries={d.history} />
            </div>
          </Section>
        </div>
      </div>
    </div>
  );
}

function RequestSection({ d }: { d: Detail }) {
  const { request } = d;
  return (
    <Section id="detalle" title="Detalles de la solicitud">
      {request.buyer_deactivated_at ? (
        <p
          role="status"
          data-testid="comprador-desactivado"
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <strong>La cuenta del comprador está desactivada</strong> desde el{" "}
          {formatDate(request.buyer_deactivated_at)}: no puede entrar a ver, aprobar ni pagar esta
          solicitud. Reactívala en Usuarios o cancela la solicitud.
        </p>
      ) : null}
      <RequestDescription text={request.description} />
      <RequirementsFile fileName={request.file_name} links={d.attachment} />
      <BuyerContact
        buyer={{
          firstName: request.buyer_first_name,
          lastName: request.buyer_last_name,
          company: request.buyer_company,
          email: request.buyer_email,
          phone: request.buyer_phone,
        }}
        nameLabel="Comprador"
        noPhone="—"
        className="mt-4 grid gap-2 text-sm sm:grid-cols-2"
        linkClassName="text-brand-700 hover:underline"
      />
    </Section>
  );
}

function PartnerQuotesSection({ d }: { d: Detail }) {
  const busy = useNavigation().state === "submitting";
  const official = useFlashedForm(d, "official-quote");
  const refusedQuote = official.field("partner_quote_id").defaultValue;
  return (
    <Section id="cotizaciones-socios" title={`Cotizaciones de socios (${d.partnerQuotes.length})`}>
      {refusedQuote !== undefined ? (
        <div className="mt-3">
          <FormErrors
            title="No se pudo aprobar la cotización del partner"
            errors={official.formErrors ?? official.field("partner_quote_id").errors}
          />
        </div>
      ) : null}
      {d.partnerQuotes.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">
          {!canAssignPartner(d.request.status)
            ? "La solicitud se cerró sin cotizaciones de socios."
            : d.assignments.length
              ? "Esperando las cotizaciones de los socios asignados."
              : "Asigna socios para recibir cotizaciones."}
        </p>
      ) : (
        <>
          <OfferComparison
            offers={d.partnerQuotes.map((pq) => ({
              ...pq,
              partnerName: pq.company_name || `${pq.first_name} ${pq.last_name}`,
              file: d.quoteFiles[pq.id]?.download,
            }))}
            currency={d.currency}
            today={d.now.slice(0, 10)}
            action={
              canApprovePartnerQuote(d.request.status)
                ? (pq) => (
                    <ActionForm to={paths.admin.officialQuote(d.request.id)}>
                      <input type="hidden" name="partner_quote_id" value={pq.id} />
                      <input type="hidden" name="offer_seen_at" value={pq.updated_at} />
                      <button type="submit" className="btn-primary w-full" disabled={busy}>
                        Aprobar
                        <span className="sr-only"> la cotización de {pq.partnerName}</span>
                      </button>
                    </ActionForm>
                  )
                : undefined
            }
          />
          <a
            href={paths.admin.comparisonCsv(d.request.id)}
            className="btn-link mt-3 inline-block text-sm"
            download
          >
            Descargar comparación (CSV)
          </a>
        </>
      )}
    </Section>
  );
}

function OfficialQuoteSection({ d }: { d: Detail }) {
  const busy = useNavigation().state === "submitting";
  const official = useFlashedForm(d, "official-quote");
  const approval = useFlashedForm(d, "buyer-approval");
  const manual = official.field("partner_quote_id").defaultValue === undefined;
  const { request } = d;
  const current = d.versions.find((v) => v.superseded_at === null);
  const expired = current ? isExpired(current.valid_until, d.now.slice(0, 10)) : false;
  const revisionBlocked = revisionBlockedByPayments(d.payments);
  return (
    <Section id="oficial" title="Cotización oficial">
      {current && d.pdf ? (
        <>
          <OfficialQuoteSummary
            requestId={request.id}
            quote={current}
            status={request.status}
            pdf={d.pdf}
            today={d.now.slice(0, 10)}
            viewer="admin"
          >
            {canRecordBuyerApproval(request.status) && !expired ? (
              // Never one click: the buyer approves on its page; the operator records an approval
              // given elsewhere, saying how (DECISIONS §9). Open when its note was refused.
              <details
                id="aprobacion-comprador"
                className="w-full"
                open={approval.field("note").errors ? true : undefined}
              >
                <summary className="btn-secondary cursor-pointer">
                  Registrar aprobación del comprador
                </summary>
                <ActionForm to={paths.admin.buyerApproval(request.id)} className="mt-3 space-y-2">
                  <p className="text-sm text-slate-700">
                    Úsalo solo si el comprador aprobó la cotización fuera de CotizaHub. Quedará en
                    el historial como un registro del equipo, se abrirá su pago por{" "}
                    {formatMoney(current.final_amount_cents, current.currency)} y le avisaremos que
                    registraste su aprobación.
                  </p>
                  <TextAreaField
                    label="Cómo aprobó el comprador"
                    {...approval.field("note")}
                    id="buyer_approval_note"
                    rows={2}
                    maxLength={500}
                    required
                    hint="Por ejemplo: por teléfono con Ana López, por correo del 28/11, orden de compra firmada."
                  />
                  <button type="submit" className="btn-primary" disabled={busy}>
                    Registrar aprobación del comprador
                  </button>
                </ActionForm>
              </details>
            ) : null}
            {canReviseOfficialQuote(request.status) && !revisionBlocked ? (
              <Link to={paths.admin.revise(request.id)} className="btn-secondary">
                {expired ? "Renovar cotización" : "Emitir nueva versión"}
              </Link>
            ) : null}
            {canReviseOfficialQuote(request.status) && revisionBlocked?.code === "locked" ? (
              <p className="text-sm text-slate-700">{revisionBlocked.message}</p>
            ) : null}
          </OfficialQuoteSummary>
          {current.renewal_requested_at ? (
            <p role="status" className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
              El comprador pidió renovar esta cotización el{" "}
              {formatDateTime(current.renewal_requested_at)}.
            </p>
          ) : null}
          <EarlierVersions versions={d.versions} links={d.versionPdfs} />
        </>
      ) : canCreateManualQuote(request.status) ? (
        <ActionForm to={paths.admin.officialQuote(request.id)} className="mt-3 space-y-3">
          <p className="text-sm text-slate-700">
            Aprueba la cotización de un socio o crea una cotización oficial manual. Se aplicará la
            comisión vigente ({formatNumber(d.commission, 3)} %, sobre el subtotal) y una validez de
            30 días (nunca más que la de la oferta aprobada).
          </p>
          {manual ? (
            <FormErrors
              title="No se pudo crear la cotización oficial"
              errors={official.formErrors}
            />
          ) : null}
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="flex-1">
              <Field
                label={`Monto final sin impuestos (${d.currency})`}
                {...official.field("amount")}
                id="manual-amount"
                inputMode="decimal"
                placeholder="1234.50"
                required
              />
            </div>
            <button type="submit" className="btn-secondary" disabled={busy}>
              Crear cotización oficial
            </button>
          </div>
        </ActionForm>
      ) : (
        <p className="mt-3 text-sm text-slate-700">Esta solicitud no tiene cotización oficial.</p>
      )}
      {/* Reopened after a rejection: what was rejected stays readable until a new one exists. */}
      {current ? null : <EarlierVersions versions={d.versions} links={d.versionPdfs} />}
    </Section>
  );
}

function PaymentsSection({ d }: { d: Detail }) {
  if (d.payments.length === 0) return null;
  return (
    <Section id="pagos" title="Pagos">
      <ul className="mt-3 divide-y divide-slate-200 text-sm">
        {d.payments.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
            <span>
              {formatMoney(p.amount_cents, d.currency)}
              {p.method ? ` · ${PAYMENT_METHOD_LABELS[p.method]}` : ""}
              {p.submitted_at ? ` · ${formatDateTime(p.submitted_at)}` : " · sin comprobante"}
              {p.rejection_reason ? ` · Motivo: ${p.rejection_reason}` : ""}
            </span>
            <span className="flex items-center gap-2">
              {d.proofFiles[p.id] ? (
                <a
                  href={d.proofFiles[p.id]!.open}
                  className="text-brand-700 hover:underline"
                  target="_blank"
                  rel="noreferrer"
                >
                  Ver comprobante
                </a>
              ) : null}
              <PaymentStatusBadge status={p.status} />
            </span>
          </li>
        ))}
      </ul>
      <Link
        to={paths.admin.payments()}
        className="mt-2 inline-block text-sm font-semibold text-brand-700 hover:underline"
      >
        Validar pagos
      </Link>
    </Section>
  );
}

function AssignSection({ d }: { d: Detail }) {
  const busy = useNavigation().state === "submitting";
  const assign = useFlashedForm(d, "assign");
  const withdraw = useFlashedForm(d, "withdraw");
  return (
    <Section
      id="asignar"
      anchor="asignar-socios"
      title={`Socios asignados (${d.assignments.length})`}
    >
      <FormErrors title="No se pudo retirar la asignación" errors={withdraw.formErrors} />
      {roundWithoutPartners(d.request.status, d.assignments) ? (
        <p
          role="status"
          data-testid="ronda-sin-socios"
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <strong>Ningún socio está cotizando esta solicitud.</strong> Los socios asignados
          declinaron, fueron retirados o ya no pueden entrar como socios: asigna otro socio para que
          el comprador reciba una cotización.
        </p>
      ) : null}
      {d.assignments.length ? (
        <ul className="mt-2 divide-y divide-slate-100 text-sm">
          {d.assignments.map((a) => {
            const name = a.company_name || `${a.first_name} ${a.last_name}`;
            const badge = operatorAssignmentBadge(a.state, canAssignPartner(d.request.status));
            const closed = closedAccountLabel(a);
            return (
              <li key={a.id} className="py-2" data-testid={`asignacion-${a.partner_id}`}>
                <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="font-medium">{name}</span>
                  <Badge tone={badge.tone}>{badge.label}</Badge>
                  {closed ? <Badge tone="red">{closed}</Badge> : null}
                </p>
                <p className="text-xs text-slate-600">
                  Invitado el {formatDate(a.assigned_at)}
                  {a.state_changed_at
                    ? a.state === "invited"
                      ? ` · invitado de nuevo: ${formatDateTime(a.state_changed_at)}`
                      : ` · último cambio: ${formatDateTime(a.state_changed_at)}`
                    : ""}
                </p>
                {a.decline_reason ? (
                  <p className="mt-1 whitespace-pre-line wrap-anywhere text-slate-700">
                    Motivo: {a.decline_reason}
                  </p>
                ) : null}
                {canWithdraw(a.state, d.request.status) ? (
                  // Asks first: the partner is told at once, by e-mail too.
                  <details className="mt-1 max-w-md">
                    <summary className="cursor-pointer text-sm font-semibold text-red-800">
                      Retirar asignación<span className="sr-only"> de {name}</span>
                    </summary>
                    <ActionForm to={paths.admin.withdraw(d.request.id)} className="mt-2 space-y-2">
                      <input type="hidden" name="partner_id" value={a.partner_id} />
                      <p className="text-sm text-slate-700">
                        {name} dejará de ver la solicitud y no podrá ofertar; le avisaremos por
                        correo. Podrás asignarlo de nuevo mientras la ronda siga abierta.
                      </p>
                      <button type="submit" className="btn-danger px-3 py-1.5" disabled={busy}>
                        Sí, retirar<span className="sr-only"> a {name}</span>
                      </button>
                    </ActionForm>
                  </details>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-slate-700">Ningún socio asignado todavía.</p>
      )}
      {canAssignPartner(d.request.status) && d.partners.length === 0 ? (
        <p className="mt-4 text-sm text-slate-700" data-testid="sin-socios-por-asignar">
          {d.assignments.length
            ? "Todos los socios activos ya están en esta solicitud."
            : "No hay socios activos. Invita a un proveedor desde Usuarios."}
        </p>
      ) : canAssignPartner(d.request.status) ? (
        <ActionForm to={paths.admin.assign(d.request.id)} className="mt-4 space-y-2">
          {/* SPEC §8: assigning a partner twice is a notice ("Aviso"), not an error. */}
          <FormErrors
            title={assign.code === "conflict" ? "Aviso" : "No se pudo asignar el partner"}
            errors={assign.formErrors}
          />
          <SelectField
            label="Asignar socio"
            {...assign.field("partner_id")}
            id="partner_id"
            required
            multiple
            size={Math.min(6, Math.max(2, d.partners.length))}
            defaultValue={[]}
            hint="Puedes elegir varios a la vez (Ctrl o Cmd + clic); el comprador recibe un solo aviso."
          >
            {d.partners.map((p) => (
              <option key={p.id} value={p.id}>
                {p.company_name
                  ? `${p.company_name} (${p.first_name} ${p.last_name})`
                  : `${p.first_name} ${p.last_name}`}
              </option>
            ))}
          </SelectField>
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            Asignar
          </button>
        </ActionForm>
      ) : null}
    </Section>
  );
}

/** The round's dates, and the operator's tools for them: extend the deadline, reopen. */
function RoundSection({ d }: { d: Detail }) {
  const busy = useNavigation().state === "submitting";
  const deadline = useFlashedForm(d, "deadline");
  const reopen = useFlashedForm(d, "reopen");
  const { request } = d;
  const past = Date.parse(request.quote_deadline) <= Date.parse(d.now);
  return (
    <Section id="plazo" title="Plazo para cotizar">
      <dl className="mt-3 space-y-2 text-sm">
        <div>
          <dt className="text-slate-600">Fecha límite de ofertas</dt>
          <dd className="font-medium" data-testid="plazo">
            {formatDateTime(request.quote_deadline)}
            {past && canExtendDeadline(request.status) ? (
              <>
                {" "}
                <Badge tone="red">Vencido</Badge>
              </>
            ) : null}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Fecha requerida por el comprador</dt>
          <dd className="font-medium">
            {request.needed_by ? formatDate(request.needed_by) : "Sin fecha indicada"}
          </dd>
        </div>
        {request.cancellation_reason ? (
          <div>
            <dt className="text-slate-600">Motivo de la cancelación</dt>
            <dd className="whitespace-pre-line wrap-anywhere">{request.cancellation_reason}</dd>
          </div>
        ) : null}
      </dl>
      {canExtendDeadline(request.status) ? (
        <ActionForm to={paths.admin.deadline(request.id)} className="mt-4 space-y-2">
          <FormErrors title="No se pudo ampliar el plazo" errors={deadline.formErrors} />
          <Field
            label="Nuevo plazo (UTC)"
            type="datetime-local"
            {...deadline.field("quote_deadline")}
            id="deadline-quote_deadline"
            defaultValue={
              deadline.field("quote_deadline").defaultValue ??
              toDeadlineInput(request.quote_deadline)
            }
            required
            hint="Solo puede ampliarse. Los socios con la invitación abierta serán notificados."
          />
          <button type="submit" className="btn-secondary w-full" disabled={busy}>
            Ampliar plazo
          </button>
        </ActionForm>
      ) : null}
      {canReopen(request.status) ? (
        <ActionForm to={paths.admin.reopen(request.id)} className="mt-4 space-y-2">
          <FormErrors title="No se pudo reabrir la solicitud" errors={reopen.formErrors} />
          <p className="text-sm text-slate-700">
            El comprador rechazó la cotización oficial. Reabre la solicitud para una nueva ronda:
            los socios podrán revisar sus ofertas y la cotización anterior queda en el historial.
          </p>
          <Field
            label="Plazo de la nueva ronda (UTC)"
            type="datetime-local"
            {...reopen.field("quote_deadline")}
            id="reopen-quote_deadline"
            defaultValue={reopen.field("quote_deadline").defaultValue ?? d.defaultDeadline}
            required
          />
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            Reabrir solicitud
          </button>
        </ActionForm>
      ) : null}
    </Section>
  );
}

function StatusSection({ d }: { d: Detail }) {
  const busy = useNavigation().state === "submitting";
  const status = useFlashedForm(d, "status");
  return (
    <Section id="estado" title="Cambiar estado">
      {/* Keyed by the status: after any change (reopen, approval…) the choice shows the new one. */}
      <ActionForm
        key={d.request.status}
        to={paths.admin.status(d.request.id)}
        className="mt-3 space-y-2"
      >
        <FormErrors title="No se pudo actualizar el estado" errors={status.formErrors} />
        <SelectField
          label="Estado"
          {...status.field("status")}
          id="status"
          defaultValue={status.field("status").defaultValue ?? d.request.status}
        >
          {REQUEST_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </SelectField>
        <Field
          label="Nota (opcional)"
          {...status.field("note")}
          id="status-note"
          maxLength={500}
          hint="Queda en el historial, que también lee el comprador. Con el mismo estado, solo se guarda la nota."
        />
        <button type="submit" className="btn-secondary w-full" disabled={busy}>
          Actualizar estado
        </button>
      </ActionForm>
    </Section>
  );
}

function NotesSection({ d }: { d: Detail }) {
  const busy = useNavigation().state === "submitting";
  const notes = useFlashedForm(d, "notes");
  return (
    <Section id="notas" title="Notas para el comprador">
      <ActionForm to={paths.admin.notes(d.request.id)} className="mt-3 space-y-2">
        <TextAreaField
          label="Notas del administrador"
          hideLabel
          {...notes.field("admin_notes")}
          id="admin_notes"
          rows={4}
          maxLength={5000}
          hint="El comprador las ve en su solicitud. Hasta 5,000 caracteres."
          defaultValue={notes.field("admin_notes").defaultValue ?? d.request.admin_notes ?? ""}
        />
        <button type="submit" className="btn-secondary w-full" disabled={busy}>
          Guardar notas
        </button>
      </ActionForm>
    </Section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <AdminQuoteNotFound /> }} />;
}
