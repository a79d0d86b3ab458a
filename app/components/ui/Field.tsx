import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: ReactNode;
  name: string;
  errors?: string[] | null;
  hint?: ReactNode;
}

/** A labelled input with its Spanish error messages announced to screen readers. */
export function Field({ label, name, errors, hint, id, ...input }: FieldProps) {
  const inputId = id ?? `field-${name}`;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const hasError = Boolean(errors?.length);
  return (
    <div>
      <label htmlFor={inputId} className="label">
        {label}
      </label>
      <input
        id={inputId}
        name={name}
        className="input"
        aria-invalid={hasError || undefined}
        aria-describedby={
          [hint ? hintId : null, hasError ? errorId : null].filter(Boolean).join(" ") || undefined
        }
        {...input}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: ReactNode;
  name: string;
  errors?: string[] | null;
}

export function TextAreaField({ label, name, errors, id, ...textarea }: TextAreaFieldProps) {
  const inputId = id ?? `field-${name}`;
  const errorId = `${inputId}-error`;
  const hasError = Boolean(errors?.length);
  return (
    <div>
      <label htmlFor={inputId} className="label">
        {label}
      </label>
      <textarea
        id={inputId}
        name={name}
        className="input"
        aria-invalid={hasError || undefined}
        aria-describedby={hasError ? errorId : undefined}
        {...textarea}
      />
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {errors.join(" ")}
    </p>
  );
}

/** Form-level errors (e.g. "Credenciales inválidas"), shown above the submit button. */
export function FormAlert({ title, children }: { title?: string; children?: ReactNode }) {
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800"
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div>{children}</div> : null}
    </div>
  );
}
