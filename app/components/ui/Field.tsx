import { useState } from "react";
import { acceptAttribute, fileTooLargeMessage, type FileRule } from "~/domain/files";
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

type PresetProps = Omit<FieldProps, "type" | "autoComplete">;

/** An e-mail address, required, with the browser offering the person's own. */
export function EmailField(props: PresetProps) {
  return <Field type="email" autoComplete="email" required {...props} />;
}

/** The password in use (sign-in, or to confirm a change). */
export function CurrentPasswordField(props: PresetProps) {
  return <Field type="password" autoComplete="current-password" required {...props} />;
}

/** A password being chosen: the browser may suggest one; the server checks it (newPasswordField). */
export function NewPasswordField(props: PresetProps) {
  return <Field type="password" autoComplete="new-password" required minLength={6} {...props} />;
}

/** The new password typed a second time. */
export function ConfirmPasswordField(props: PresetProps) {
  return <Field type="password" autoComplete="new-password" required {...props} />;
}

/** A phone number; the browser offers the person's own. */
export function PhoneField(props: PresetProps) {
  return <Field type="tel" autoComplete="tel" {...props} />;
}

/**
 * A number typed as text, so "1234,50" reaches the server as typed (it reads the number and
 * answers in Spanish); phones show a number keypad.
 */
export function NumberField({ decimal, ...props }: PresetProps & { decimal?: boolean }) {
  return <Field type="text" inputMode={decimal ? "decimal" : "numeric"} {...props} />;
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

/**
 * A file input for one upload rule. With JavaScript a file over the rule's size is refused as soon
 * as it is chosen (the same message the server gives), instead of after sending megabytes the
 * server will refuse; without JavaScript the server's check answers.
 * `defaultValue` is the name of a file the server received but did not keep, because the form came
 * back (an error, «Añadir renglón»…): a new page cannot hold a file, so without JavaScript the
 * person is asked to attach it again. With JavaScript the page stays and the input keeps the file.
 */
export function FileField({
  label,
  name,
  errors,
  hint,
  id,
  rule,
  defaultValue: unkept,
  ...input
}: FieldProps & { rule: FileRule }) {
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const shown = tooLarge ? [tooLarge] : errors;
  const ids = useShell({ label, name, id, errors: shown, hint });
  return (
    <Shell label={label} errors={shown} hint={hint} ids={ids}>
      <input
        type="file"
        accept={acceptAttribute(rule)}
        className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-800"
        {...ids.control}
        {...input}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          const refused = file && file.size > rule.maxBytes;
          if (refused) event.currentTarget.value = "";
          setTooLarge(refused ? fileTooLargeMessage(rule) : null);
          input.onChange?.(event);
        }}
      />
      {typeof unkept === "string" && unkept ? (
        <noscript>
          <p className="field-error" data-testid="archivo-no-conservado">
            {`No conservamos «${unkept}» al devolverte el formulario: vuelve a adjuntarlo antes de enviar.`}
          </p>
        </noscript>
      ) : null}
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
