/**
 * DECISIONS §3: the platform currency can be changed only while no amount is recorded; after that
 * a new currency is refused (relabelling stored amounts would misstate every past deal), while the
 * other settings still save.
 */
import { describe, expect, it } from "vitest";
import { createProduct } from "~/models/product.server";
import { db } from "~/services/db.server";
import {
  amountsRecorded,
  CURRENCY_LOCKED_MESSAGE,
  getSettings,
  saveSettings,
} from "~/services/settings.server";

const product = (basePriceCents: number | null) =>
  createProduct(
    db,
    {
      name: `Producto ${basePriceCents ?? "sin precio"}`,
      sku: null,
      description: null,
      category_id: null,
      supplier_id: null,
      basePriceCents,
      stock_quantity: 1,
      isActive: true,
    },
    null,
  );

describe("moneda de la plataforma", () => {
  it("se cambia mientras no hay montos y queda fija en cuanto se registra uno", async () => {
    expect((await product(null)).ok).toBe(true);
    expect(await amountsRecorded(db)).toBe(false);
    const base = await getSettings(db);
    expect(await saveSettings(db, { ...base, currency: "MXN" })).toEqual({
      ok: true,
      value: undefined,
    });
    expect((await getSettings(db)).currency).toBe("MXN");

    expect((await product(150_000)).ok).toBe(true);
    expect(await amountsRecorded(db)).toBe(true);
    expect(await saveSettings(db, { ...base, currency: "EUR" })).toEqual({
      ok: false,
      code: "locked",
      message: CURRENCY_LOCKED_MESSAGE,
      fieldErrors: { currency: [CURRENCY_LOCKED_MESSAGE] },
    });
    expect(await getSettings(db)).toMatchObject({ currency: "MXN", quoteDays: base.quoteDays });

    // The rest of the form still saves with the currency it already has.
    const saved = await saveSettings(db, { ...base, currency: "MXN", quoteDays: 9 });
    expect(saved.ok).toBe(true);
    expect(await getSettings(db)).toMatchObject({ currency: "MXN", quoteDays: 9 });
  });
});
