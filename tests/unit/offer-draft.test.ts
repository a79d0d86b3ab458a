import { describe, expect, it } from "vitest";
import { draftIntent, offerDraftReply } from "~/services/offer-form.server";

function form(entries: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
}

const rows = {
  "items[0].description": "Válvula",
  "items[0].quantity": "2",
  "items[1].description": "Por error",
  "items[1].quantity": "1",
  "items[2].description": "Flete",
  "items[2].quantity": "1",
};

describe("los botones de borrador del formulario de oferta", () => {
  it("leen «Añadir renglón», «Quitar renglón N» y «Calcular totales»; nada más", () => {
    expect(draftIntent(form({ intent: "add_row" }))).toEqual({ kind: "add_row" });
    expect(draftIntent(form({ intent: "preview" }))).toEqual({ kind: "preview" });
    expect(draftIntent(form({ intent: "remove_row:2" }))).toEqual({ kind: "remove_row", row: 2 });
    for (const intent of ["remove_row:", "remove_row:-1", "remove_row:1e3", "remove_row:1234", "x"])
      expect(draftIntent(form({ intent }))).toBeNull();
    expect(draftIntent(form({}))).toBeNull();
  });

  it("quitar un renglón devuelve los demás en orden, con lo escrito y sin error", async () => {
    const reply = offerDraftReply(form({ ...rows, tax_rate: "16" }), {
      kind: "remove_row",
      row: 1,
    });
    const { result } = reply.data;
    expect(result.error).toEqual({});
    expect(result.initialValue).toMatchObject({
      items: [
        { description: "Válvula", quantity: "2" },
        { description: "Flete", quantity: "1" },
      ],
      tax_rate: "16",
    });
  });

  it("añadir deja un renglón vacío al final; un índice fuera de la lista no quita nada", () => {
    const added = offerDraftReply(form(rows), { kind: "add_row" }).data.result.initialValue;
    expect((added as { items: unknown[] }).items).toHaveLength(4);
    const kept = offerDraftReply(form(rows), { kind: "remove_row", row: 9 }).data.result
      .initialValue;
    expect((kept as { items: unknown[] }).items).toHaveLength(3);
  });
});
