import { z } from "zod";

const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_BYTES = 72;

const byteLength = (value: string) => new TextEncoder().encode(value).length;

export const emailField = z
  .string({ required_error: "El correo es obligatorio." })
  .trim()
  .toLowerCase()
  .max(254, "El correo es demasiado largo.")
  .email("Ingresa un correo válido.");

export const newPasswordField = z
  .string({ required_error: "La contraseña es obligatoria." })
  .min(MIN_PASSWORD_LENGTH, `La contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres.`)
  .refine((v) => byteLength(v) <= MAX_PASSWORD_BYTES, {
    message: `La contraseña no puede superar ${MAX_PASSWORD_BYTES} bytes.`,
  });

/**
 * A form that sets a new password typed twice (`password` names the first field); a mismatch is
 * reported on `confirm_password`.
 */
export function withPasswordConfirmation<S extends z.ZodRawShape>(
  shape: S,
  password: keyof S & string,
  confirmRequired: string,
) {
  return z
    .object({ ...shape, confirm_password: z.string({ required_error: confirmRequired }) })
    .refine((v) => (v as Record<string, unknown>)[password] === v.confirm_password, {
      path: ["confirm_password"],
      message: "Las contraseñas no coinciden.",
    });
}

export const requiredText = (label: string, max = 200) =>
  z
    .string({ required_error: `${label} es obligatorio.` })
    .trim()
    .min(1, `${label} es obligatorio.`)
    .max(max, `${label} no puede superar ${max} caracteres.`);

export const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, `No puede superar ${max} caracteres.`)
    .optional()
    .transform((v) => (v ? v : null));

export const phoneField = z
  .string()
  .trim()
  .max(40, "El teléfono no puede superar 40 caracteres.")
  .regex(/^[0-9+()\-.\s]*$/, "El teléfono solo puede contener números, espacios y + ( ) - .")
  .optional()
  .transform((v) => (v ? v : null));

/**
 * An upload form's file as a form field: the file was staged and checked while the body streamed
 * (readUploadForm); its verdict becomes this field's message, so it shows next to the field with
 * the other fields' messages. `required` is the message when no file was sent.
 */
export function withUpload<T extends z.ZodTypeAny>(
  schema: T,
  field: string,
  upload: { file: unknown; fileError: string | null },
  required?: string,
) {
  const file = z.unknown().superRefine((_, ctx) => {
    const message = upload.fileError ?? (required && !upload.file ? required : null);
    if (message) ctx.addIssue({ code: z.ZodIssueCode.custom, message });
  });
  return z.intersection(schema, z.object({ [field]: file }));
}

/** A record id chosen in a form (a select or a hidden field), with the message when it is not one. */
export const idField = (message: string) =>
  z
    .string({ required_error: message })
    .trim()
    .regex(/^[1-9]\d{0,14}$/, message)
    .transform(Number);
