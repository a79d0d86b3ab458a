/**
 * «Instrucciones de pago»: the operator's text telling buyers where and how to pay (a setting), and
 * the reference a buyer quotes with the transfer so the operator can match it to the request. No
 * zod here: the settings page and the buyer's pages ship this.
 */
export const MAX_PAYMENT_INSTRUCTIONS = 1000;

/** What the buyer writes as the payment's reference (concepto): the request's number. */
export function paymentReference(requestId: number): string {
  return `Solicitud N.º ${requestId}`;
}
