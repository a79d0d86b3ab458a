import { describe, expect, it } from "vitest";
import { csvAmount, csvDate, csvResponse } from "~/services/csv.server";

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
});
