import { Field } from "~/components/ui/Field";

interface FieldState {
  name: string;
  defaultValue?: string;
  errors?: string[];
}

/**
 * The request's deadline for offers (a `datetime-local` read as UTC, see domain/request-dates) and
 * the optional needed-by day, as the new-request and edit forms ask for them. `min`/`max` only
 * help the browser's picker: the forms are `noValidate` and the server answers in Spanish.
 */
export function RequestDateFields({
  deadline,
  neededBy,
  earliest,
  latest,
  deadlineHint,
}: {
  deadline: FieldState;
  neededBy: FieldState;
  earliest: string;
  latest: string;
  deadlineHint: string;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field
        label="Plazo para cotizar (UTC)"
        {...deadline}
        type="datetime-local"
        min={earliest}
        max={latest}
        hint={deadlineHint}
      />
      <Field
        label="Fecha requerida (opcional)"
        {...neededBy}
        type="date"
        min={earliest.slice(0, 10)}
        hint="El día en que necesitas recibir lo solicitado."
      />
    </div>
  );
}
