import { describe, expect, it } from "vitest";
import { csvAmount, csvDate, csvField, csvResponse } from "~/services/csv.server";

async function* batches(...rows: unknown[][][]) {
  for (const batch of rows) yield batch;
}

describe("CSV", () => {
  it("lleva BOM, comillas donde hacen falta, CRLF y ninguna fórmula", async () => {
    const response = csvResponse(
      "x.csv",
      ["Título", "Monto"],
      batches(
        [['Válvulas "DN50", lote 3', csvAmount(123_456)]],
        [
          ['=HYPERLINK("http://x")', csvAmount(-5)],
          ["línea\nnueva", null],
        ],
      ),
    );
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="x.csv"');
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe(
      'Título,Monto\r\n"Válvulas ""DN50"", lote 3",1234.56\r\n' +
        `"'=HYPERLINK(""http://x"")",-0.05\r\n"línea\nnueva",\r\n`,
    );
  });

  it("fechas UTC legibles por una hoja de cálculo", () => {
    expect(csvDate("2026-11-25T14:03:59.123Z")).toBe("2026-11-25 14:03");
    expect(csvDate(null)).toBe("");
    expect(csvAmount(0)).toBe("0.00");
    expect(csvAmount(null)).toBe("");
  });

  describe("una celda que una hoja de cálculo tomaría por fórmula lleva un apóstrofo delante", () => {
    it.each([
      ["igual", "=1+1"],
      ["más", "+1+1"],
      ["menos", "-1+1"],
      ["arroba", "@SUM(A1)"],
      ["tabulador", "\tcualquier cosa"],
      ["igual de ancho completo U+FF1D", "\uFF1D1+1"],
      ["más de ancho completo U+FF0B", "\uFF0B1+1"],
      ["menos de ancho completo U+FF0D", "\uFF0D1+1"],
      ["arroba de ancho completo U+FF20", "\uFF20SUM(A1)"],
      ["signo menos U+2212", "\u22121+1"],
      ["más pequeño U+FE62", "\uFE621+1"],
      ["guion-menos pequeño U+FE63", "\uFE631+1"],
      ["igual pequeño U+FE66", "\uFE661+1"],
      ["arroba pequeña U+FE6B", "\uFE6BSUM(A1)"],
      ["más superíndice U+207A", "\u207A1+1"],
      ["más subíndice U+208A", "\u208A1+1"],
      ["igual superíndice U+207C", "\u207C1+1"],
      ["igual subíndice U+208C", "\u208C1+1"],
      ["espacios antes", "   =1+1"],
      ["espacio duro antes", "\u00A0=1+1"],
      ["espacio de ancho cero antes", "\u200B=1+1"],
      ["marca de orden de bytes antes", "\uFEFF=1+1"],
      ["varios invisibles antes de un igual de ancho completo", "\u200B\u00A0 \uFEFF\uFF1D1+1"],
      ["marca de dirección antes", "\u200E+1"],
    ])("%s", (_name, text) => {
      expect(csvField(text)).toBe(`'${text}`);
    });

    it("y se sigue entrecomillando cuando hace falta", () => {
      expect(csvField("\rcualquier cosa")).toBe(`"'\rcualquier cosa"`);
      expect(csvField('\uFF1DHYPERLINK("http://x","y")')).toBe(
        `"'\uFF1DHYPERLINK(""http://x"",""y"")"`,
      );
    });
  });

  describe("lo demás queda tal cual", () => {
    it.each([
      ["un negativo", "-12.50"],
      ["un entero negativo", "-5"],
      ["un número", "1234.56"],
      ["un texto", "Válvulas DN50"],
      ["un igual en medio", "a=1+1"],
      ["un texto con espacios delante", "  Válvulas"],
      ["un guion de ancho completo en medio", "Lote\uFF0D3"],
      ["un correo", "ana@ejemplo.test"],
    ])("%s", (_name, text) => {
      expect(csvField(text)).toBe(text);
    });

    it("vacíos, números y nulos", () => {
      expect(csvField(null)).toBe("");
      expect(csvField(undefined)).toBe("");
      expect(csvField(-3)).toBe("-3");
      expect(csvField(42)).toBe("42");
    });
  });
});
