import { describe, expect, it } from "vitest";
import { countOf, formatNumber } from "~/utils/format";

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
