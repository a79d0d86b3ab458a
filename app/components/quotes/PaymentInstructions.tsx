import { paymentReference } from "~/domain/payment-instructions";

/**
 * Where and how to pay, beside every amount a buyer is asked to pay: the operator's instructions
 * (a setting) and the reference to quote with the transfer.
 */
export function PaymentInstructions({
  instructions,
  requestId,
  className = "",
}: {
  instructions: string;
  requestId: number;
  className?: string;
}) {
  return (
    <section
      aria-labelledby="como-pagar"
      className={`rounded-md border border-brand-100 bg-brand-50 p-4 text-sm ${className}`}
      data-testid="instrucciones-pago"
    >
      <h2 id="como-pagar" className="font-semibold text-slate-900">
        Cómo pagar
      </h2>
      {instructions ? (
        <p className="mt-1 whitespace-pre-line text-slate-800">{instructions}</p>
      ) : (
        <p className="mt-1 text-slate-800">
          El equipo de CotizaHub te enviará los datos para el pago. Si aún no los tienes, pídelos en
          la conversación de esta solicitud.
        </p>
      )}
      <p className="mt-2 text-slate-800">
        Referencia del pago: <strong>{paymentReference(requestId)}</strong>
      </p>
    </section>
  );
}
