import { settingsFromRows, type Settings } from "~/domain/settings";
import { fail, ok, type Result } from "~/domain/result";
import { now, writeTransaction, type DB } from "./db.server";

/** The last settings read, parsed: validating them again on every request cost more than reading. */
let lastRead: { raw: string; settings: Settings } | undefined;

export async function getSettings(database: DB): Promise<Settings> {
  const rows = await database.selectFrom("settings").select(["key", "value"]).execute();
  const raw = rows.map((row) => `${row.key}=${row.value}`).join("\n");
  if (lastRead?.raw !== raw) lastRead = { raw, settings: Object.freeze(settingsFromRows(rows)) };
  return lastRead.settings;
}

/**
 * Whether any amount is stored in the platform currency: an offer, an official quote, a payment or a
 * catalogue price. From then on the currency only labels those numbers (DECISIONS §3).
 */
export async function amountsRecorded(database: DB): Promise<boolean> {
  const row = await database
    .selectNoFrom((eb) =>
      eb
        .or([
          eb.exists(eb.selectFrom("partner_quotes").select("id")),
          eb.exists(eb.selectFrom("official_quotes").select("id")),
          eb.exists(eb.selectFrom("payments").select("id")),
          eb.exists(
            eb.selectFrom("products").select("id").where("base_price_cents", "is not", null),
          ),
        ])
        .as("recorded"),
    )
    .executeTakeFirstOrThrow();
  return Boolean(row.recorded);
}

export const CURRENCY_LOCKED_MESSAGE =
  "La moneda ya no se puede cambiar: hay montos registrados en ella (ofertas, cotizaciones oficiales, pagos o precios del catálogo) y cambiarla los reetiquetaría sin convertirlos.";

/**
 * Saves every setting at once. A new currency is refused once an amount is recorded, checked in
 * the writing transaction so an offer sent meanwhile cannot slip between the check and the save.
 */
export async function saveSettings(database: DB, settings: Settings): Promise<Result> {
  const updatedAt = now();
  return writeTransaction(database, async (tx) => {
    const { currency } = await getSettings(tx);
    if (settings.currency !== currency && (await amountsRecorded(tx)))
      return fail("locked", CURRENCY_LOCKED_MESSAGE, "currency");
    for (const [key, value] of Object.entries(settings)) {
      await tx
        .insertInto("settings")
        .values({ key, value: JSON.stringify(value), updated_at: updatedAt })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({ value: JSON.stringify(value), updated_at: updatedAt }),
        )
        .execute();
    }
    return ok();
  });
}
