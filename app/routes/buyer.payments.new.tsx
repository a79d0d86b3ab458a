import { readUploadForm } from "~/services/form.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PAYMENT_METHOD_LABELS } from "~/domain/payments";
import { data, redirect } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import type { PaymentMethod } from "../../db/schema";
import { NotFoundPanel, notFoundResponse } from "~/components/NotFoundPanel";
import { FieldErrors, FormAlert } from "~/components/ui/Field";
import { acceptAttribute, FILE_RULES, MAX_UPLOAD_MB } from "~/domain/files";
import { centsToInput, formatMoney, parseAmountToCents } from "~/domain/money";
import { canPay } from "~/domain/quote-status";
import { getPayableQuote, submitPaymentProof } from "~/models/payment.server";
import { requireRole } from "~/services/auth.server";
import { db } from "~/services/db.server";
import { toastCookie } from "~/services/session.server";
import { commitStagedFile, deleteStoredFile, discardStagedFile } from "~/services/storage.server";
import { formatDate } from "~/utils/format";
import { idFrom } from "~/utils/ids";

export const meta: MetaFunction = () => [{ title: "Enviar comprobante de pago · CotizaHub" }];

const METHODS = Object.keys(PAYMENT_METHOD_LABELS) as PaymentMethod[];
const MISSING = "Por favor completa todos los campos requeridos.";

/** Only the buyer's own request; anything else is "not found". */
async function payableFor(request: Request) {
  const user = await requireRole(request, "buyer");
  const id = idFrom(new URL(request.url).searchParams.get("quote"));
  const quote = id ? await getPayableQuote(db, { requestId: id, buyerId: user.id }) : undefined;
  if (!quote) throw notFoundResponse();
  return { user, quote };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { quote } = await payableFor(request);
  return { quote, payable: canPay(quote.status) };
}

type Errors = { amount?: string[]; method?: string[]; file?: string[]; form?: string[] };

export async function action({ request }: ActionFunctionArgs) {
  const { user, quote } = await payableFor(request);
  const { formData, file, fileError } = await readUploadForm(
    request,
    "file",
    FILE_RULES.paymentProof,
  );
  const rawAmount = String(formData.get("amount") ?? "").trim();
  const rawMethod = String(formData.get("method") ?? "transfer");
  const values = { amount: rawAmount, method: rawMethod };
  const errors: Errors = {};
  const amountCents = parseAmountToCents(rawAmount);
  if (!rawAmount || !file) errors.form = [MISSING];
  if (rawAmount && (amountCents === null || amountCents <= 0)) {
    errors.amount = ["Ingresa un monto válido, por ejemplo 1234.50 o 1234,50."];
  }
  const method = METHODS.find((m) => m === rawMethod);
  if (!method) errors.method = ["Elige un método de pago válido."];
  if (fileError) errors.file = [fileError];
  else if (!file) errors.file = ["Adjunta el comprobante de pago."];
  if (Object.keys(errors).length > 0) {
    await discardStagedFile(file);
    return data({ errors, values }, { status: 400 });
  }
  const key = await commitStagedFile(file!);
  const result = await submitPaymentProof(db, {
    requestId: quote.id,
    buyerId: user.id,
    amountCents: amountCents!,
    method: method!,
    proof: { key, name: file!.originalName, type: file!.mime },
  }).catch(async (error) => {
    await deleteStoredFile(key);
    throw error;
  });
  if (!result.ok) {
    await deleteStoredFile(key);
    if (result.error === "not_found") throw notFoundResponse();
    const field = result.error === "amount_mismatch" ? "amount" : "form";
    return data({ errors: { [field]: [result.message] } as Errors, values }, { status: 409 });
  }
  if (result.replacedProofKey) await deleteStoredFile(result.replacedProofKey);
  return redirect("/buyer/payments", {
    headers: {
      "Set-Cookie": await toastCookie({
        type: "success",
        title: "Comprobante de pago enviado correctamente. Será validado por nuestro equipo.",
        description: "La validación toma hasta 2 días hábiles.",
      }),
    },
  });
}

export default function NewPayment() {
  const { quote, payable } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errors: Errors = actionData?.errors ?? {};
  const amountDefault = actionData?.values.amount ?? centsToInput(quote.final_amount_cents);
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="lg:col-span-2">
        <h1 className="page-title">Enviar comprobante de pago</h1>
        <p className="mt-1 text-slate-700">{quote.title}</p>
        {!payable ? (
          <div className="card mt-6">
            <p className="text-slate-800">Esta cotización no está pendiente de pago.</p>
            <Link to={`/buyer/quotes/${quote.id}`} className="btn-secondary mt-4">
              Volver a la cotización
            </Link>
          </div>
        ) : (
          <Form
            method="post"
            encType="multipart/form-data"
            className="card mt-6 space-y-4"
            noValidate={false}
          >
            {errors.form ? <FormAlert title="Error">{errors.form.join(" ")}</FormAlert> : null}
            <div>
              <label htmlFor="amount" className="label">
                Monto pagado ({quote.currency})
              </label>
              <input
                id="amount"
                name="amount"
                inputMode="decimal"
                required
                defaultValue={amountDefault}
                className="input"
                aria-invalid={errors.amount ? true : undefined}
                aria-describedby={`amount-hint${errors.amount ? " amount-error" : ""}`}
              />
              <p id="amount-hint" className="mt-1 text-xs text-slate-600">
                Total de la cotización oficial:{" "}
                {formatMoney(quote.final_amount_cents, quote.currency)}. Usa punto o coma para los
                decimales.
              </p>
              <FieldErrors id="amount-error" errors={errors.amount} />
            </div>
            <div>
              <label htmlFor="method" className="label">
                Método de pago
              </label>
              <select
                id="method"
                name="method"
                className="input"
                defaultValue={actionData?.values.method ?? "transfer"}
              >
                {METHODS.map((m) => (
                  <option key={m} value={m}>
                    {PAYMENT_METHOD_LABELS[m]}
                  </option>
                ))}
              </select>
              <FieldErrors errors={errors.method} />
            </div>
            <div>
              <label htmlFor="file" className="label">
                Comprobante de pago
              </label>
              <input
                id="file"
                name="file"
                type="file"
                required
                accept={acceptAttribute(FILE_RULES.paymentProof)}
                className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-800"
                aria-invalid={errors.file ? true : undefined}
                aria-describedby={`file-hint${errors.file ? " file-error" : ""}`}
              />
              <p id="file-hint" className="mt-1 text-xs text-slate-600">
                Imagen o PDF, máximo {MAX_UPLOAD_MB} MB.
              </p>
              <FieldErrors id="file-error" errors={errors.file} />
            </div>
            <div className="flex flex-wrap gap-3">
              <button type="submit" className="btn-primary" disabled={busy}>
                {busy ? "Enviando…" : "Enviar comprobante"}
              </button>
              <Link to={`/buyer/quotes/${quote.id}`} className="btn-secondary">
                Cancelar
              </Link>
            </div>
          </Form>
        )}
      </div>
      <aside className="card h-fit" aria-labelledby="resumen">
        <h2 id="resumen" className="text-lg font-semibold">
          Resumen
        </h2>
        <dl className="mt-3 space-y-2 text-sm">
          <div>
            <dt className="text-slate-600">Total a pagar</dt>
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
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <NotFoundPanel
        title="Cotización no encontrada"
        backTo="/buyer/quotes"
        backLabel="Volver a Mis Cotizaciones"
      />
    );
  }
  throw error;
}
