import { z } from "zod";
import {
  CANCEL_REASON_LONG,
  CANCEL_REASON_MAX,
  CANCEL_REASON_MIN,
  CANCEL_REASON_SHORT,
  DEADLINE_FORMAT_MESSAGE,
  DEADLINE_REQUIRED_MESSAGE,
  NEEDED_BY_FORMAT_MESSAGE,
  parseDayInput,
  parseDeadlineInput,
} from "./request-dates";
import { optionalText, requiredText } from "./validation";

/**
 * The fields of the new-request and edit forms (DECISIONS §4/§6: `title`, `description`,
 * `quote_deadline`, `needed_by`; the file is read by the upload reader). Only the form's shape is
 * checked here; the rules that depend on the time (future, at most 90 days, not before today) are
 * the model's. Factories, so zod stays out of the browser bundle (only actions call them).
 */

/** A text field read with `parse`: empty → null (or `required`); unreadable → `message`. */
function parsedText(parse: (value: string) => string | null, message: string, required?: string) {
  return z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) {
        if (required) ctx.addIssue({ code: z.ZodIssueCode.custom, message: required });
        return null;
      }
      const parsed = parse(value);
      if (parsed === null) ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      return parsed;
    });
}

/** `deadlineRequired`: the edit form (its deadline is shown filled in); new requests default it. */
export function requestFields({ deadlineRequired }: { deadlineRequired: boolean }) {
  return z.object({
    title: requiredText("El título", 150),
    description: optionalText(5000),
    quote_deadline: parsedText(
      parseDeadlineInput,
      DEADLINE_FORMAT_MESSAGE,
      deadlineRequired ? DEADLINE_REQUIRED_MESSAGE : undefined,
    ),
    needed_by: parsedText(parseDayInput, NEEDED_BY_FORMAT_MESSAGE),
  });
}

export function cancelFields() {
  return z.object({
    reason: z
      .string({ required_error: CANCEL_REASON_SHORT })
      .trim()
      .min(CANCEL_REASON_MIN, CANCEL_REASON_SHORT)
      .max(CANCEL_REASON_MAX, CANCEL_REASON_LONG),
  });
}

/** The operator's deadline forms (extend, reopen): one required `quote_deadline`. */
export function deadlineFields() {
  return z.object({
    quote_deadline: parsedText(
      parseDeadlineInput,
      DEADLINE_FORMAT_MESSAGE,
      DEADLINE_REQUIRED_MESSAGE,
    ).transform((value) => value ?? ""),
  });
}
