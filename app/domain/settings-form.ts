import { z } from "zod";
import { parseAmountToCents } from "./money";
import { settingsSchema, SUPPORTED_CURRENCIES, type Settings } from "./settings";

/**
 * The /admin/settings form: what a person types (decimals with a dot or a comma, the minimum quote
 * as an amount) with Spanish messages, turned into `Settings` and checked again by settingsSchema.
 */

const integer = (label: string, min: number, max: number) =>
  z
    .string({ required_error: `${label} es obligatorio.` })
    .trim()
    .refine(
      (v) => /^\d{1,7}$/.test(v) && Number(v) >= min && Number(v) <= max,
      `${label} debe ser un número entero entre ${min} y ${max}.`,
    )
    .transform(Number);

const decimal = (label: string, min: number, max: number) =>
  z
    .string({ required_error: `${label} es obligatorio.` })
    .trim()
    .refine((v) => {
      if (!/^\d{1,7}(?:[.,]\d{1,4})?$/.test(v)) return false;
      const n = Number(v.replace(",", "."));
      return n >= min && n <= max;
    }, `${label} debe ser un número entre ${min} y ${max} (usa punto o coma para los decimales).`)
    .transform((v) => Number(v.replace(",", ".")));

export const settingsFormSchema = z
  .object({
    sessionTimeoutMinutes: integer("El tiempo de sesión", 5, 60 * 24 * 30),
    maxLoginAttempts: integer("El máximo de intentos", 1, 100),
    defaultCommission: decimal("La comisión", 0, 100),
    loyaltyPointsPerUnit: decimal("Los puntos por unidad", 0, 1000),
    minQuoteAmount: z
      .string({ required_error: "El monto mínimo es obligatorio." })
      .trim()
      .refine(
        (v) => parseAmountToCents(v) !== null,
        "Ingresa un monto válido, por ejemplo 100 o 100,50.",
      )
      .transform((v) => parseAmountToCents(v)!),
    quoteDays: integer("Los días para cotizar", 1, 60),
    defaultTaxRate: decimal("El IVA por defecto", 0, 100),
    currency: z.enum(SUPPORTED_CURRENCIES, {
      errorMap: () => ({ message: "Elige una moneda de la lista." }),
    }),
  })
  .transform(({ minQuoteAmount, ...rest }) => ({ ...rest, minQuoteAmountCents: minQuoteAmount }))
  .pipe(settingsSchema) satisfies z.ZodType<Settings, z.ZodTypeDef, unknown>;

export { CURRENCY_LABELS } from "./currencies";
