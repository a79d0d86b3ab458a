import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { BuyerQuoteNotFound } from "~/components/NotFoundPanel";
import { PaymentInstructions } from "~/components/quotes/PaymentInstructions";
import { Field, FileField, FormErrors, SelectField } from "~/components/ui/Field";
import { FILE_RULES, MAX_UPLOAD_MB } from "~/domain/files";
import { centsToInput, formatMoney, parseAmountToCents } from "~/domain/money";
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from "~/domain/payments";
import { canPay } from "~/domain/quote-status";
import { withUpload } from "~/domain/validation";
import { getPayableQuote, submitPaymentProof } from "~/models/payment.server";
import { getRequestForBuyer } from "~/models/quote-request.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { getSettings } from "~/services/settings.server";
import { readUploadForm } from "~/services/form.server";
import { invalidForm, notFound, redirectWithToast, respond } from "~/services/respond.server";
import { discardStagedFile, storeUpload } from "~/services/storage.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { idFrom } from "~/utils/ids";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Enviar comprobante de pago · CotizaHub",
    "Envía el comprobante del pago de una cotización aprobada.",
  );

const MISSING = "Por favor completa todos los campos requeridos.";
const AMOUNT_MESSAGE = "Ingresa un monto válido, por ejemplo 1234.50 o 1234,50.";

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function schema(upload: Parameters<typeof withUpload>[2]) {
  return withUpload(
    z.object({
      amount: z
        .string({ required_error: AMOUNT_MESSAGE })
        .refine((value) => (parseAmountToCents(value) ?? 0) > 0, AMOUNT_MESSAGE)
        .transform((value) => parseAmountToCents(value)!),
      method: z
        .enum(PAYMENT_METHODS, {
          errorMap: () => ({ message: "Elige un método de pago válido." }),
        })
        .default("transfer"),
    }),
    "file",
    upload,
    "Adjunta el comprobante de pago.",
  );
}

/**
 * Only the buyer's own request; anything else is "not found". Their own request without an
 * official quote yet goes back to its page, which says where it stands.
 */
async function payableFor(request: Request) {
  const user = await requireRole(request, "buyer");
  const id = idFrom(new URL(request.url).searchParams.get("quote"));
  const quote = id ? await getPayableQuote(db, { requestId: id, buyerId: user.id }) : undefined;
  if (!quote) {
    if (id && (await getRequestForBuyer(db, { id, buyerId: user.id })))
      throw await redirectWithToast(paths.buyer.quote(id), {
        type: "info",
        title: "Aún no hay nada que pagar",
        description:
          "Esta solicitud todavía no tiene cotización oficial: podrás pagarla cuando la recibas.",
      });
    throw notFound();
  }
  return { user, quote };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { quote } = await payableFor(request);
  const { paymentInstructions } = await getSettings(db);
  return { quote, payable: canPay(quote.status), paymentInstructions };
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, quote } = await payableFor(request);
  const upload = await readUploadForm(request, "file", FILE_RULES.paymentProof);
  const submission = parseWithZod(upload.formData, { schema: schema(upload) });
  if (submission.status !== "success") {
    await discardStagedFile(upload.file);
    // SPEC §5: a missing amount or file is also said above the form (a refused file is not missing:
    // its own message says what is wrong with it).
    const missing = !upload.formData.get("amount") || (!upload.file && !upload.fileError);
    return invalidForm(submission, {
      formErrors: missing ? [MISSING] : undefined,
      unkeptFile: upload.file,
    });
  }
  const { amount, method } = submission.value;
  const result = await storeUpload(
    upload.file,
    (file) =>
      submitPaymentProof(db, {
        requestId: quote.id,
        buyerId: user.id,
        amountCents: amount,
        method,
        proof: file!,
      }),
    { replaced: (saved) => saved.replacedProofKey },
  );
  return respond(
    result,
    submission,
    () => ({
      to: paths.buyer.payments(),
      toast: {
        type: "success",
        title: "Comprobante de pago enviado correctamente. Será validado por nuestro equipo.",
        description: "La validación toma hasta 2 días hábiles.",
      },
    }),
    // A refusal did not keep the file: without JavaScript it is asked for again.
    { unkeptFile: upload.file },
  );
}

export default function NewPayment() {
  const { quote, payable, paymentInstructions } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const form = serverForm(actionData?.result);
  const backToQuote = (
    <Link to={paths.buyer.quote(quote.id)} className="btn-secondary">
      {payable ? "Cancelar" : "Volver a la cotización"}
    </Link>
  );
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="lg:col-span-2">
        <h1 className="page-title">Enviar comprobante de pago</h1>
        <p className="mt-1 text-slate-700">{quote.title}</p>
        {!payable ? (
          <div className="card mt-6 space-y-4">
            <p className="text-slate-800">
              {quote.status === "paid"
                ? "Esta cotización ya está pagada."
                : "Esta cotización no está pendiente de pago."}
            </p>
            {backToQuote}
          </div>
        ) : (
          <>
            <PaymentInstructions
              instructions={paymentInstructions}
              requestId={quote.id}
              className="mt-6"
            />
            <Form method="post" encType="multipart/form-data" className="card mt-6 space-y-4">
              {quote.proof_in_review_since ? (
                <p
                  role="status"
                  className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
                >
                  Ya enviaste un comprobante el {formatDateTime(quote.proof_in_review_since)} y está
                  en revisión. Si envías otro, reemplazará al anterior.
                </p>
              ) : null}
              <FormErrors errors={form.formErrors} />
              <Field
                label={`Monto pagado (${quote.currency})`}
                {...form.field("amount")}
                defaultValue={
                  form.field("amount").defaultValue ?? centsToInput(quote.final_amount_cents)
                }
                inputMode="decimal"
                required
                hint={`Total de la cotización oficial: ${formatMoney(quote.final_amount_cents, quote.currency)}. Usa punto o coma para los decimales.`}
              />
              <SelectField
                label="Método de pago"
                {...form.field("method")}
                defaultValue={form.field("method").defaultValue ?? "transfer"}
              >
                {PAYMENT_METHODS.map((m) => (
                  <option key={m} value={m}>
                    {PAYMENT_METHOD_LABELS[m]}
                  </option>
                ))}
              </SelectField>
              <FileField
                label="Comprobante de pago"
                {...form.field("file")}
                required
                rule={FILE_RULES.paymentProof}
                hint={`Imagen o PDF, máximo ${MAX_UPLOAD_MB} MB.`}
              />
              <div className="flex flex-wrap gap-3">
                <button type="submit" className="btn-primary" disabled={busy}>
                  {busy ? "Enviando…" : "Enviar comprobante"}
                </button>
                {backToQuote}
              </div>
            </Form>
          </>
        )}
      </div>
      <aside className="card h-fit" aria-labelledby="resumen">
        <h2 id="resumen" className="text-lg font-semibold">
          Resumen
        </h2>
        <dl className="mt-3 space-y-2 text-sm">
          <div>
            <dt className="text-slate-600">
              {payable ? "Total a pagar" : "Total de la cotización"}
            </dt>
            <dd className="text-xl font-bold">
              {formatMoney(quote.final_amount_cents, quote.currency)}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Válida hasta</dt>
            <dd>{formatDate(quote.valid_until)}</dd>
          </div>
        </dl>
        <p className="mt-3 text-xs text-slate-600">
          Validamos el comprobante en un plazo de hasta 2 días hábiles.
        </p>
      </aside>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <BuyerQuoteNotFound /> }} />;
}
