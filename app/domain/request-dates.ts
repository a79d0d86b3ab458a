/**
 * A request's two dates (DECISIONS §6): `quote_deadline`, the instant until which partners may
 * offer, and `needed_by`, the day the buyer needs the goods.
 *
 * Every date and time of the product is shown in UTC (utils/format), so the deadline the buyer
 * types in a `datetime-local` field is read as UTC too, and shown back in the field the same way:
 * one zone everywhere, and the same value whatever the browser's own zone (docs/decisions/0007).
 * Stored as an ISO instant ("2026-12-03T17:00:00.000Z") and a day ("2026-12-15").
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** How far ahead a deadline may be set. */
export const MAX_DEADLINE_DAYS = 90;

/** The cancellation reason's length (DECISIONS §6: cancel forms take `reason`). */
export const CANCEL_REASON_MIN = 3;
export const CANCEL_REASON_MAX = 1000;
export const CANCEL_REASON_SHORT = `Indica el motivo de la cancelación (al menos ${CANCEL_REASON_MIN} caracteres).`;
export const CANCEL_REASON_LONG = `El motivo no puede superar ${CANCEL_REASON_MAX} caracteres.`;

/** Why a cancellation reason is refused, or null when it is fine. */
export function cancelReasonProblem(reason: string): string | null {
  if (reason.trim().length < CANCEL_REASON_MIN) return CANCEL_REASON_SHORT;
  if (reason.trim().length > CANCEL_REASON_MAX) return CANCEL_REASON_LONG;
  return null;
}

export const DEADLINE_FORMAT_MESSAGE =
  "Indica una fecha y hora válidas para el plazo (por ejemplo 2026-12-01T17:00).";
export const NEEDED_BY_FORMAT_MESSAGE =
  "Indica una fecha válida (por ejemplo 2026-12-15) o deja el campo vacío.";
export const DEADLINE_REQUIRED_MESSAGE = "Indica el plazo para cotizar.";

const DATE_TIME_LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day that exists ("2026-02-30" does not). */
function realDay(year: number, month: number, day: number): Date | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
    ? date
    : null;
}

/** A `datetime-local` value read as UTC, as an ISO instant; null when it is not one. */
export function parseDeadlineInput(value: string): string | null {
  const match = DATE_TIME_LOCAL.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match;
  const day = realDay(Number(y), Number(mo), Number(d));
  const hours = Number(h);
  const minutes = Number(mi);
  const seconds = Number(s ?? 0);
  if (!day || hours > 23 || minutes > 59 || seconds > 59) return null;
  return new Date(day.getTime() + hours * HOUR_MS + minutes * MINUTE_MS).toISOString();
}

/** A date field's value ("2026-12-15") when it is a real day; null otherwise. */
export function parseDayInput(value: string): string | null {
  const match = DATE_ONLY.exec(value.trim());
  if (!match) return null;
  return realDay(Number(match[1]), Number(match[2]), Number(match[3])) ? match[0] : null;
}

/** An instant as a `datetime-local` value in UTC, to the minute ("2026-12-03T17:00"). */
export function toDeadlineInput(iso: string | Date): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  return date.toISOString().slice(0, 16);
}

/** The UTC day of an instant ("2026-12-03"). */
export function dayOf(iso: string | Date): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  return date.toISOString().slice(0, 10);
}

/** The deadline a request gets when the buyer leaves the field empty: now + «días para cotizar». */
export function defaultDeadline(quoteDays: number, now: Date = new Date()): string {
  return new Date(now.getTime() + quoteDays * DAY_MS).toISOString();
}

/** The latest deadline the form accepts now. */
export function latestDeadline(now: Date = new Date()): string {
  return new Date(now.getTime() + MAX_DEADLINE_DAYS * DAY_MS).toISOString();
}

interface RequestDates {
  /** The deadline the request will have (an ISO instant). */
  quoteDeadline: string;
  neededBy: string | null;
}

/**
 * The Spanish message for each date that breaks a rule, by form field; null when both are fine.
 * Only what changes is checked (`changed`): a buyer editing the title of a request whose deadline
 * has passed is not made to move it. The deadline must be in the future and at most
 * MAX_DEADLINE_DAYS ahead; the needed-by day not before today nor before the deadline's day.
 */
export function requestDatesProblems(
  { quoteDeadline, neededBy }: RequestDates,
  now: Date = new Date(),
  changed: { quoteDeadline: boolean; neededBy: boolean } = { quoteDeadline: true, neededBy: true },
): Record<string, string[]> | null {
  const problems: Record<string, string[]> = {};
  const deadline = Date.parse(quoteDeadline);
  if (changed.quoteDeadline) {
    if (deadline <= now.getTime()) {
      problems.quote_deadline = ["El plazo para cotizar debe ser posterior a este momento."];
    } else if (deadline > Date.parse(latestDeadline(now))) {
      problems.quote_deadline = [
        `El plazo para cotizar no puede superar ${MAX_DEADLINE_DAYS} días desde hoy.`,
      ];
    }
  }
  if (neededBy && (changed.neededBy || changed.quoteDeadline)) {
    if (changed.neededBy && neededBy < dayOf(now)) {
      problems.needed_by = ["La fecha requerida no puede ser anterior a hoy."];
    } else if (neededBy < dayOf(quoteDeadline)) {
      problems.needed_by = [
        "La fecha requerida no puede ser anterior al día del plazo para cotizar: adelanta el plazo o elige otra fecha.",
      ];
    }
  }
  return Object.keys(problems).length > 0 ? problems : null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What is left of an open deadline, in words ("Quedan 2 días y 4 horas"), or null once it has
 * passed.
 */
export function timeLeft(deadline: string, now: Date = new Date()): string | null {
  const left = Date.parse(deadline) - now.getTime();
  if (left <= 0) return null;
  const days = Math.floor(left / DAY_MS);
  const hours = Math.floor((left % DAY_MS) / HOUR_MS);
  const minutes = Math.floor((left % HOUR_MS) / MINUTE_MS);
  const parts =
    days > 0
      ? [plural(days, "día", "días"), hours > 0 ? plural(hours, "hora", "horas") : null]
      : hours > 0
        ? [
            plural(hours, "hora", "horas"),
            minutes > 0 ? plural(minutes, "minuto", "minutos") : null,
          ]
        : minutes > 0
          ? [plural(minutes, "minuto", "minutos")]
          : null;
  if (!parts) return "Queda menos de un minuto";
  const first = days > 0 ? days : hours > 0 ? hours : minutes;
  return `${first === 1 ? "Queda" : "Quedan"} ${parts.filter(Boolean).join(" y ")}`;
}
