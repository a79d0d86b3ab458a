import type { OfferLine } from "~/domain/offer";
import type { DB } from "~/services/db.server";

/**
 * The line items of partner offers and official quotes (DECISIONS §7), stored in two tables of the
 * same shape. An offer's lines are replaced as a whole when the partner edits it; an official
 * quote's are written once, with the version they belong to.
 */

const itemColumns = [
  "position",
  "description",
  "quantity_milli",
  "unit",
  "unit_price_cents",
  "line_cents",
] as const;

const rowOf = (line: OfferLine, position: number) => ({
  position,
  description: line.description,
  quantity_milli: line.quantityMilli,
  unit: line.unit,
  unit_price_cents: line.unitPriceCents,
  line_cents: line.lineCents,
});

type ItemRow = {
  position: number;
  description: string;
  quantity_milli: number;
  unit: string;
  unit_price_cents: number;
  line_cents: number;
};

const lineOf = (row: ItemRow): OfferLine => ({
  description: row.description,
  quantityMilli: row.quantity_milli,
  unit: row.unit,
  unitPriceCents: row.unit_price_cents,
  lineCents: row.line_cents,
});

function group<K extends string>(rows: (ItemRow & Record<K, number>)[], key: K) {
  const map = new Map<number, OfferLine[]>();
  for (const row of rows) {
    const lines = map.get(row[key]) ?? [];
    lines.push(lineOf(row));
    map.set(row[key], lines);
  }
  return map;
}

export async function replaceOfferItems(tx: DB, partnerQuoteId: number, lines: OfferLine[]) {
  await tx
    .deleteFrom("partner_quote_items")
    .where("partner_quote_id", "=", partnerQuoteId)
    .execute();
  if (lines.length === 0) return;
  await tx
    .insertInto("partner_quote_items")
    .values(lines.map((line, i) => ({ partner_quote_id: partnerQuoteId, ...rowOf(line, i) })))
    .execute();
}

export async function insertOfficialQuoteItems(
  tx: DB,
  officialQuoteId: number,
  lines: OfferLine[],
) {
  if (lines.length === 0) return;
  await tx
    .insertInto("official_quote_items")
    .values(lines.map((line, i) => ({ official_quote_id: officialQuoteId, ...rowOf(line, i) })))
    .execute();
}

/** Lines of these offers, by offer id, in their order. */
export async function offerItems(database: DB, partnerQuoteIds: number[]) {
  if (partnerQuoteIds.length === 0) return new Map<number, OfferLine[]>();
  const rows = await database
    .selectFrom("partner_quote_items")
    .select(["partner_quote_id", ...itemColumns])
    .where("partner_quote_id", "in", partnerQuoteIds)
    .orderBy("partner_quote_id")
    .orderBy("position")
    .execute();
  return group(rows, "partner_quote_id");
}

/** Lines of these official quote versions, by official quote id, in their order. */
export async function officialQuoteItems(database: DB, officialQuoteIds: number[]) {
  if (officialQuoteIds.length === 0) return new Map<number, OfferLine[]>();
  const rows = await database
    .selectFrom("official_quote_items")
    .select(["official_quote_id", ...itemColumns])
    .where("official_quote_id", "in", officialQuoteIds)
    .orderBy("official_quote_id")
    .orderBy("position")
    .execute();
  return group(rows, "official_quote_id");
}
