import { parseWithZod } from "@conform-to/zod";
import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { z } from "zod";
import { MAX_ITEMS, offerDraftFrom, parseOffer, utcDay, type OfferTerms } from "~/domain/offer";
import { optionalText } from "~/domain/validation";
import { withUnkeptFile, type FormReply } from "./respond.server";
import { getSettings } from "./settings.server";
import type { DB } from "./db.server";

/**
 * The structured offer form on the server (DECISIONS §7): the partner's offer and the operator's
 * revision of an official quote post the same fields. The figures come from the domain's
 * parseOffer over the posted fields; any subtotal, tax or total the browser sends is not read.
 */

/** The day and default tax rate an offer is checked against. */
export async function offerContext(database: DB) {
  const { defaultTaxRate } = await getSettings(database);
  return { today: utcDay(), defaultTaxRate: Math.round(defaultTaxRate * 100) };
}

export type OfferContext = Awaited<ReturnType<typeof offerContext>>;

/** "items[2].unit" → ["items", 2, "unit"], the path Conform names the field by. */
function pathOf(name: string): (string | number)[] {
  return name
    .split(/[[\].]+/)
    .filter(Boolean)
    .map((key) => (/^\d+$/.test(key) ? Number(key) : key));
}

/** The offer fields plus `extra` (notes, reason…), with every offer error on its own field. */
export function offerSchema<Extra extends z.ZodRawShape>(
  formData: FormData,
  context: OfferContext,
  extra: Extra,
) {
  const parsed = parseOffer(offerDraftFrom(formData), context);
  return z
    .object(extra)
    .passthrough()
    .superRefine((_, ctx) => {
      if (parsed.ok) return;
      for (const [name, message] of Object.entries(parsed.errors))
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: pathOf(name), message });
    })
    .transform((value) => ({
      ...(value as z.objectOutputType<Extra, z.ZodTypeAny>),
      offer: (parsed as { offer: OfferTerms }).offer,
    }));
}

export const notesField = { notes: optionalText(2000) };

/** What a draft button asks for instead of saving: a row more, a row less, or the totals. */
export type DraftIntent =
  { kind: "add_row" } | { kind: "remove_row"; row: number } | { kind: "preview" };

/**
 * «Añadir renglón», «Quitar renglón» and «Calcular totales» without JavaScript: the form comes back
 * with what was typed (one more empty row, or without the row removed), no error and nothing
 * stored. The totals are previewed by the page from those values.
 */
export function offerDraftReply(
  formData: FormData,
  intent: DraftIntent,
  unkeptFile: { originalName: string } | null = null,
) {
  const { payload } = parseWithZod(formData, { schema: z.object({}).passthrough() });
  // The reader refused any index past MAX_ITEMS, so this echoes at most MAX_ITEMS rows.
  const items = Array.isArray(payload.items) ? [...payload.items] : [];
  const full = intent.kind === "add_row" && items.length >= MAX_ITEMS;
  if (intent.kind === "add_row" && !full) items.push({});
  if (intent.kind === "remove_row") items.splice(intent.row, 1);
  const result: SubmissionResult<string[]> = {
    status: "error",
    initialValue: { ...payload, items, file: undefined } as unknown as SubmissionResult<
      string[]
    >["initialValue"],
    error: full ? { items: [`Una oferta puede tener hasta ${MAX_ITEMS} renglones.`] } : {},
  };
  return data<FormReply>({ result: withUnkeptFile(result, unkeptFile) });
}

/** The form's `intent` (`add_row`, `remove_row:N`, `preview`) when it does not save. */
export function draftIntent(formData: FormData): DraftIntent | null {
  const intent = formData.get("intent");
  if (intent === "add_row" || intent === "preview") return { kind: intent };
  const removed = typeof intent === "string" ? /^remove_row:(\d{1,3})$/.exec(intent) : null;
  return removed ? { kind: "remove_row", row: Number(removed[1]) } : null;
}
