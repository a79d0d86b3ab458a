import { z } from "zod";
import { formatNumber } from "~/utils/format";
import { parseAmountToCents } from "./money";
import { MAX_PAYMENT_INSTRUCTIONS } from "./payment-instructions";
import { settingsSchema, SUPPORTED_CURRENCIES, type Settings } from "./settings";

/**
 * The /admin/settings form: what a person types (decimals with a dot or a comma, the minimum quote
 * as an amount) with Spanish messages, turned into `Settings` and checked again by settingsSchema.
 */

/** A setting's name as a sentence's subject: «Los días para cotizar deben…», «La comisión debe…». */
type Subject = { label: string; plural?: boolean };
const must = ({ label, plural }: Subject) => `${label} ${plural ? "deben" : "debe"}`;
const required = ({ label, plural }: Subject) =>
  `${label} ${plural ? "son obligatorios" : "es obligatorio"}.`;

const integer = (subject: Subject, min: number, max: number) =>
  z
    .string({ required_error: required(subject) })
    .trim()
    .refine(
      (v) => /^\d{1,7}$/.test(v) && Number(v) >= min && Number(v) <= max,
      `${must(subject)} ser un número entero entre ${min} y ${max}.`,
    )
    .transform(Number);

const decimal = (subject: Subject, min: number, max: number) =>
  z
    .string({ required_error: required(subject) })
    .trim()
    .refine(
      (v) => {
        if (!/^\d{1,7}(?:[.,]\d{1,4})?$/.test(v)) return false;
        const n = Number(v.replace(",", "."));
        return n >= min && n <= max;
      },
      `${must(subject)} ser un número entre ${min} y ${max} (usa punto o coma para los decimales).`,
    )
    .transform((v) => Number(v.replace(",", ".")));

export const settingsFormSchema = z
  .object({
    sessionTimeoutMinutes: integer({ label: "El tiempo de sesión" }, 5, 60 * 24 * 30),
    maxLoginAttempts: integer({ label: "El máximo de intentos" }, 1, 100),
    defaultCommission: decimal({ label: "La comisión" }, 0, 100),
    loyaltyPointsPerUnit: decimal({ label: "Los puntos por unidad", plural: true }, 0, 1000),
    minQuoteAmount: z
      .string({ required_error: "El monto mínimo es obligatorio." })
      .trim()
      .refine(
        (v) => parseAmountToCents(v) !== null,
        "Ingresa un monto válido, por ejemplo 100 o 100,50.",
      )
      .transform((v) => parseAmountToCents(v)!),
    quoteDays: integer({ label: "Los días para cotizar", plural: true }, 1, 60),
    defaultTaxRate: decimal({ label: "El IVA por defecto" }, 0, 100),
    currency: z.enum(SUPPORTED_CURRENCIES, {
      errorMap: () => ({ message: "Elige una moneda de la lista." }),
    }),
    // Left empty (or left out), no instructions. A form sends a textarea's line breaks as CRLF:
    // one character each, as the field counts them.
    paymentInstructions: z
      .string()
      .optional()
      .transform((v) => (v ?? "").replace(/\r\n?/g, "\n").trim())
      .refine(
        (v) => v.length <= MAX_PAYMENT_INSTRUCTIONS,
        `Las instrucciones de pago admiten hasta ${formatNumber(MAX_PAYMENT_INSTRUCTIONS)} caracteres.`,
      ),
  })
  .transform(({ minQuoteAmount, ...rest }) => ({ ...rest, minQuoteAmountCents: minQuoteAmount }))
  .pipe(settingsSchema) satisfies z.ZodType<Settings, z.ZodTypeDef, unknown>;

export { CURRENCY_LABELS } from "./currencies";
