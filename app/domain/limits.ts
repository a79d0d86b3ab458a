import { MAX_UPLOAD_BYTES } from "./files";
import { MAX_ITEMS } from "./offer";

/**
 * Total request body caps (DECISIONS §5). A form without a file never needs more than a few KB;
 * a form with a file may carry one 10 MB file plus its fields.
 */
export const MAX_URLENCODED_BYTES = 256 * 1024;
export const MAX_MULTIPART_BYTES = MAX_UPLOAD_BYTES + 1024 * 1024;
/** One text field of a multipart form (descriptions are at most a few thousand characters). */
export const MAX_TEXT_FIELD_BYTES = 64 * 1024;
/**
 * Rows a form's list fields (`items[N].…`) may hold: an offer's lines, the only list form. An
 * index at or past it refuses the whole form before any row is built (see fieldNameProblem).
 */
export const MAX_FORM_ROWS = MAX_ITEMS;
/**
 * Fields and parts per form: room for the largest real form (an offer of MAX_FORM_ROWS lines, four
 * fields each, plus its terms, file and buttons), so a form past its rows gets the rows' message,
 * not this cap's; low enough to bound the work.
 */
export const MAX_FIELDS = MAX_FORM_ROWS * 4 + 50;

/** Why a posted field name is refused before it is read: an index past the rows, or a bad path. */
export type FieldNameProblem = "row" | "name";

/** A name as Conform reads it: keys joined by dots, list indices in brackets ("items[2].unit"). */
const FIELD_PATH = /^(?:[^.[\]]+|\[\d+\])(?:\.[^.[\]]+|\[\d+\])*$/;
const FORBIDDEN_KEY = /(?:^|\.)(?:__proto__|constructor|prototype)(?:$|[.[])/;

/**
 * The one check every posted field name passes before the form is parsed. Conform builds an array
 * as long as the largest index it meets (`items[1000000].x` allocated a million rows) and throws on
 * a name it cannot read (`items[x]`, `a..b`), so both are refused here as a whole, with nothing
 * built or stored.
 */
export function fieldNameProblem(name: string): FieldNameProblem | null {
  if (name === "") return null;
  if (!FIELD_PATH.test(name) || FORBIDDEN_KEY.test(name)) return "name";
  for (const [, digits] of name.matchAll(/\[(\d+)\]/g))
    if (digits.length > 3 || Number(digits) >= MAX_FORM_ROWS) return "row";
  return null;
}
