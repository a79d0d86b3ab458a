/**
 * What every model that can refuse returns. The code says how the refusal is answered (see
 * services/respond.server.ts); the message is the Spanish text a person reads. Nothing branches on
 * the message.
 *
 * - not_found: no such record, or not the caller's (answered as the SPEC's not-found page).
 * - invalid: the input breaks a rule (answered next to the field, or above the form).
 * - conflict: someone or something got there first (already assigned, already paid, a duplicate).
 * - locked: the record's state does not allow it now (wrong status, quote already selected).
 * - forbidden: the caller may not do this.
 */
export type FailCode = "not_found" | "invalid" | "conflict" | "locked" | "forbidden";

export type Failure = {
  ok: false;
  code: FailCode;
  message: string;
  fieldErrors?: Record<string, string[]>;
};

export type Result<T = undefined> = { ok: true; value: T } | Failure;

export function ok(): { ok: true; value: undefined };
export function ok<T>(value: T): { ok: true; value: T };
export function ok<T>(value?: T) {
  return { ok: true as const, value };
}

/**
 * A refusal. With `field`, the message belongs next to that form field; with a record, several
 * fields have their own messages.
 */
export function fail(
  code: FailCode,
  message: string,
  field?: string | Record<string, string[]>,
): Failure {
  if (field === undefined) return { ok: false, code, message };
  const fieldErrors = typeof field === "string" ? { [field]: [message] } : field;
  return { ok: false, code, message, fieldErrors };
}
