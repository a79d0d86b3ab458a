import { z } from "zod";

/**
 * Deadlines are typed in an HTML `datetime-local` field ("2026-11-28T15:30") and read as UTC, the
 * zone every page shows times in (utils/format: «28 nov 2026, 15:30 UTC»), so what a person types
 * is what they read back.
 */
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The instant a `datetime-local` value names, as an ISO string, or null when it is not one. */
export function parseDeadlineInput(value: string): string | null {
  const match = LOCAL_DATE_TIME.exec(value.trim());
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map((part) => Number(part ?? 0));
  const time = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  const date = new Date(time);
  // Reject what Date.UTC silently rolls over (31 February, 25:00).
  if (date.getUTCMonth() !== mo! - 1 || date.getUTCDate() !== d! || date.getUTCHours() !== h!)
    return null;
  return date.toISOString();
}

/** An instant as the value of a `datetime-local` field (UTC, minutes). */
export function deadlineInputValue(iso: string): string {
  return iso.slice(0, 16);
}

/** The latest deadline anyone may set: a round is not left open for more than this. */
export const MAX_DEADLINE_DAYS = 90;

/** A new deadline: a real date and time, later than now, at most MAX_DEADLINE_DAYS ahead. */
export const futureDeadlineField = z
  .string({ required_error: "Indica la fecha y hora límite." })
  .transform((value, ctx) => {
    const iso = parseDeadlineInput(value);
    if (!iso) {
      ctx.addIssue({ code: "custom", message: "Indica una fecha y hora válidas." });
      return z.NEVER;
    }
    const time = Date.parse(iso);
    if (time <= Date.now()) {
      ctx.addIssue({ code: "custom", message: "El plazo debe ser posterior a este momento." });
      return z.NEVER;
    }
    if (time > Date.now() + MAX_DEADLINE_DAYS * 86_400_000) {
      ctx.addIssue({
        code: "custom",
        message: `El plazo no puede superar ${MAX_DEADLINE_DAYS} días desde hoy.`,
      });
      return z.NEVER;
    }
    return iso;
  });
