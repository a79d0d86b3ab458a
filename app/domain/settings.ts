import { z } from "zod";
import { SUPPORTED_CURRENCIES } from "./currencies";
import { MAX_PAYMENT_INSTRUCTIONS } from "./payment-instructions";

/** Operator settings (SPEC §9 defaults), stored in the `settings` table and used by the code. */
export interface Settings {
  sessionTimeoutMinutes: number;
  maxLoginAttempts: number;
  defaultCommission: number;
  loyaltyPointsPerUnit: number;
  minQuoteAmountCents: number;
  currency: string;
  /** "Días para cotizar": a new request's default deadline for offers (DECISIONS §6). */
  quoteDays: number;
  /** «IVA por defecto» (%): the tax rate an offer starts with (DECISIONS §7). */
  defaultTaxRate: number;
  /**
   * «Instrucciones de pago»: where and how a buyer pays (bank, account, beneficiary), shown with
   * every amount to pay and in the official quote's PDF. Empty until an operator writes them.
   */
  paymentInstructions: string;
}

const DEFAULT_SETTINGS: Settings = {
  sessionTimeoutMinutes: 60,
  maxLoginAttempts: 5,
  defaultCommission: 5.0,
  loyaltyPointsPerUnit: 1.0,
  minQuoteAmountCents: 10_000,
  currency: "USD",
  quoteDays: 3,
  defaultTaxRate: 0,
  paymentInstructions: "",
};

export { SUPPORTED_CURRENCIES };

export const settingsSchema = z.object({
  sessionTimeoutMinutes: z.coerce
    .number()
    .int()
    .min(5)
    .max(60 * 24 * 30),
  maxLoginAttempts: z.coerce.number().int().min(1).max(100),
  defaultCommission: z.coerce.number().min(0).max(100),
  loyaltyPointsPerUnit: z.coerce.number().min(0).max(1000),
  minQuoteAmountCents: z.coerce.number().int().min(0),
  currency: z.enum(SUPPORTED_CURRENCIES),
  quoteDays: z.coerce.number().int().min(1).max(60),
  // Hundredths of a percent are what offers store, so two decimals at most.
  defaultTaxRate: z.coerce
    .number()
    .min(0)
    .max(100)
    .transform((rate) => Math.round(rate * 100) / 100),
  // Optional: a form's empty text reaches here as undefined (conform), and means no instructions.
  paymentInstructions: z
    .string()
    .max(MAX_PAYMENT_INSTRUCTIONS)
    .optional()
    .transform((v) => v ?? ""),
});

export function settingsFromRows(rows: { key: string; value: string }[]): Settings {
  const raw: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    if (row.key in DEFAULT_SETTINGS) raw[row.key] = JSON.parse(row.value);
  }
  const parsed = settingsSchema.safeParse(raw);
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
}
