import { z } from "zod";
import { parseAmountToCents } from "./money";
import { optionalText, requiredText } from "./validation";

/** SPEC §5 product rules; field names are the DECISIONS §4 contract. */

export const PRICE_MESSAGE = "Ingresa un precio válido, por ejemplo 1234.50 o 1234,50.";
export const STOCK_MESSAGE = "La existencia debe ser un número entero igual o mayor que 0.";
const MAX_STOCK = 1_000_000_000;

const optionalId = (message: string) =>
  z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || /^[1-9]\d{0,9}$/.test(v), message)
    .transform((v) => (v ? Number(v) : null));

const TRUE_VALUES = ["on", "true", "1"];

export const productSchema = z
  .object({
    name: requiredText("El nombre", 160),
    sku: optionalText(80),
    description: optionalText(5000),
    category_id: optionalId("Elige una categoría de la lista."),
    supplier_id: optionalId("Elige un proveedor de la lista."),
    base_price: z
      .string()
      .trim()
      .optional()
      .refine((v) => !v || parseAmountToCents(v) !== null, PRICE_MESSAGE)
      .transform((v) => (v ? parseAmountToCents(v) : null)),
    stock_quantity: z
      .string()
      .trim()
      .optional()
      .refine((v) => !v || (/^\d{1,10}$/.test(v) && Number(v) <= MAX_STOCK), STOCK_MESSAGE)
      .transform((v) => (v ? Number(v) : 0)),
    is_active: z.string().optional(),
    // The form renders the checkbox with this marker, so an unchecked box (sent as nothing) reads as
    // "inactive"; a client that leaves both out gets the SPEC default, active.
    is_active_shown: z.string().optional(),
    remove_image: z.string().optional(),
    // The edit form's stamp of the product it showed (its updated_at): a save from a page older
    // than the last change is refused instead of silently undoing it.
    edited_from: z.string().optional(),
  })
  .transform(({ is_active, is_active_shown, remove_image, base_price, edited_from, ...rest }) => ({
    ...rest,
    editedFrom: edited_from ?? null,
    basePriceCents: base_price,
    isActive:
      is_active === undefined ? is_active_shown === undefined : TRUE_VALUES.includes(is_active),
    removeImage: remove_image !== undefined && TRUE_VALUES.includes(remove_image),
  }));

export type ProductFormValue = z.output<typeof productSchema>;

/** A stored product image: the storage key and its checked MIME type. */
export interface ProductImage {
  key: string;
  type: string;
}

/** The product form's initial values, as the strings the inputs show. */
export interface ProductFormDefaults {
  name: string;
  sku: string;
  description: string;
  category_id: string;
  supplier_id: string;
  base_price: string;
  stock_quantity: string;
  is_active: boolean;
  /** The edited product's updated_at (edit form only). */
  edited_from?: string;
}

export const categoryNameSchema = requiredText("El nombre de la categoría", 80);
