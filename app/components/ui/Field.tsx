import type {
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from "react";

interface ShellProps {
  label: ReactNode;
  /** The label is read by screen readers only (the field's purpose is clear from its place). */
  hideLabel?: boolean;
  name: string;
  id?: string;
  errors?: string[] | null;
  hint?: ReactNode;
}

/**
 * Label, hint and Spanish error messages around one control, with the ids that tie them together
 * for screen readers. Every form field of the product is one of the controls below.
 */
function useShell({ name, id, errors, hint }: ShellProps) {
  const inputId = id ?? `field-${name}`;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const hasError = Boolean(errors?.length);
  return {
    inputId,
    errorId,
    hintId,
    control: {
      id: inputId,
      name,
      "aria-invalid": hasError || undefined,
      "aria-describedby":
        [hint ? hintId : null, hasError ? errorId : null].filter(Boolean).join(" ") || undefined,
    },
  };
}

function Shell({
  label,
  hideLabel,
  errors,
  hint,
  ids,
  children,
}: Pick<ShellProps, "label" | "hideLabel" | "errors" | "hint"> & {
  ids: ReturnType<typeof useShell>;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={ids.inputId} className={hideLabel ? "sr-only" : "label"}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={ids.hintId} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={ids.errorId} errors={errors} />
    </div>
  );
}

type FieldProps = ShellProps & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id">;

/** A labelled input with its Spanish error messages announced to screen readers. */
export function Field({ label, hideLabel, name, errors, hint, id, ...input }: FieldProps) {
  const ids = useShell({ label, name, id, errors, hint });
  return (
    <Shell label={label} hideLabel={hideLabel} errors={errors} hint={hint} ids={ids}>
      <input className="input" {...ids.control} {...input} />
    </Shell>
  );
}

type TextAreaFieldProps = ShellProps &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id">;

export function TextAreaField({
  label,
  hideLabel,
  name,
  errors,
  hint,
  id,
  ...textarea
}: TextAreaFieldProps) {
  const ids = useShell({ label, name, id, errors, hint });
  return (
    <Shell label={label} hideLabel={hideLabel} errors={errors} hint={hint} ids={ids}>
      <textarea className="input" {...ids.control} {...textarea} />
    </Shell>
  );
}

type SelectFieldProps = ShellProps & Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "id">;

export function SelectField({
  label,
  name,
  errors,
  hint,
  id,
  children,
  ...select
}: SelectFieldProps) {
  const ids = useShell({ label, name, id, errors, hint });
  return (
    <Shell label={label} errors={errors} hint={hint} ids={ids}>
      <select className="input" {...ids.control} {...select}>
        {children}
      </select>
    </Shell>
  );
}

/** A file input; the file is checked on the server (type by content, size while streaming). */
export function FileField({ label, name, errors, hint, id, ...input }: FieldProps) {
  const ids = useShell({ label, name, id, errors, hint });
  return (
    <Shell label={label} errors={errors} hint={hint} ids={ids}>
      <input
        type="file"
        className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-800"
        {...ids.control}
        {...input}
      />
    </Shell>
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

/** A form's errors that belong to no single field, if any. */
export function FormErrors({ title = "Error", errors }: { title?: string; errors?: string[] }) {
  return errors?.length ? <FormAlert title={title}>{errors.join(" ")}</FormAlert> : null;
}
