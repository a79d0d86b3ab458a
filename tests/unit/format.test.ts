import { describe, expect, it } from "vitest";
import {
  countOf,
  formatDate,
  formatDateTime,
  formatNumber,
  withoutFinalStop,
} from "~/utils/format";

describe("formatNumber", () => {
  it.each([
    [0, 0, "0"],
    [11_800, 0, "11,800"],
    [1_234_567, 0, "1,234,567"],
    [11_800.6, 0, "11,801"],
    [5.25, 3, "5.25"],
    [87.56, 1, "87.6"],
    [1.5, 3, "1.5"],
  ])("%s with %s decimals → %s", (value, decimals, text) => {
    expect(formatNumber(value, decimals)).toBe(text);
  });
});

describe("countOf", () => {
  it("uses the singular only for exactly one", () => {
    expect(countOf(1, "producto", "productos")).toBe("1 producto");
    expect(countOf(0, "producto", "productos")).toBe("0 productos");
    expect(countOf(2, "punto", "puntos")).toBe("2 puntos");
    expect(countOf(11_800, "punto", "puntos")).toBe("11,800 puntos");
  });
});

describe("formatDate and formatDateTime", () => {
  // What Intl prints for es-ES in UTC, the shapes the app showed before they were written out.
  const intlDate = new Intl.DateTimeFormat("es-ES", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
  const intlDateTime = new Intl.DateTimeFormat("es-ES", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  });

  it("print what Intl prints, for every month, hour and minute edge and 2,000 random instants", () => {
    const instants = [
      Date.UTC(2026, 8, 5, 7, 4),
      Date.UTC(2026, 0, 1, 0, 0),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2024, 1, 29, 12, 30),
      ...Array.from({ length: 12 }, (_, month) => Date.UTC(2025, month, 15, 9, 9)),
    ];
    let seed = 7;
    for (let i = 0; i < 2_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      instants.push(Date.UTC(1970, 0, 1) + (seed / 2_147_483_648) * 4_102_444_800_000);
    }
    for (const instant of instants) {
      const date = new Date(instant);
      expect(formatDate(date)).toBe(intlDate.format(date));
      expect(formatDateTime(date.toISOString())).toBe(`${intlDateTime.format(date)} UTC`);
    }
  });

  it("show a dash for no date and refuse an invalid one as Intl did", () => {
    expect(formatDate(null)).toBe("—");
    expect(formatDateTime("")).toBe("—");
    expect(() => formatDate("no es una fecha")).toThrow(RangeError);
  });
});

describe("withoutFinalStop", () => {
  it("drops the final stop of a typed reason so our sentence adds exactly one", () => {
    expect(withoutFinalStop("Falta el IVA (16 %).")).toBe("Falta el IVA (16 %)");
    expect(withoutFinalStop("Ya no es necesario...  ")).toBe("Ya no es necesario");
    expect(withoutFinalStop("¿Monto correcto?")).toBe("¿Monto correcto?");
    expect(withoutFinalStop("Sin punto")).toBe("Sin punto");
  });
});
