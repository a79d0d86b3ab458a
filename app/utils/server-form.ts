import type { SubmissionResult } from "@conform-to/react";

/**
 * Reads a Conform `submission.reply()` from the action for a plain HTML form: the submitted
 * values and the Spanish errors per field. Validation is the server's (parseWithZod in the
 * action); the browser gets no form library, which keeps forms within the JavaScript budget and
 * identical with JavaScript off.
 */
export function serverForm(
  result: SubmissionResult<string[]> | null | undefined,
  /** The stored values an edit form starts from; after a refused submission, what was typed. */
  defaults?: Record<string, string>,
) {
  const errors = result?.error ?? {};
  const values = (result?.initialValue ?? {}) as Record<string, unknown>;
  const submitted = result?.status === "error";
  const initial = (name: string) => {
    const value = valueAt(values, name);
    const typed = typeof value === "string" ? value : undefined;
    if (!defaults) return typed;
    return submitted ? (typed ?? "") : defaults[name];
  };
  return {
    /** Errors that belong to no single field (Conform keeps them under ""). */
    formErrors: errors[""] ?? undefined,
    /** Props for a Field/TextAreaField: name, the value typed before, and its errors. */
    field(name: string) {
      return { name, defaultValue: initial(name), errors: errors[name] ?? undefined };
    },
  };
}

/**
 * What was typed in `name`: Conform keeps list fields nested ("items[2].unit" is
 * `values.items[2].unit`), other fields flat.
 */
function valueAt(values: Record<string, unknown>, name: string): unknown {
  if (name in values) return values[name];
  let current: unknown = values;
  for (const key of name.split(/[[\].]+/).filter(Boolean)) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
