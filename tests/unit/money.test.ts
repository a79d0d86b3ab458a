import { SUPPORTED_CURRENCIES } from "~/domain/currencies";
import { describe, expect, it } from "vitest";
import {
  centsToInput,
  commissionCents,
  formatCompactMoney,
  formatMoney,
  parseAmountToCents,
} from "~/domain/money";

describe("parseAmountToCents", () => {
  it.each([
    ["1234.50", 123_450],
    ["1234,50", 123_450],
    ["1234,5", 123_450],
    ["1234", 123_400],
    ["0.01", 1],
    ["$ 1 234,05", 123_405],
    ["  99.99 ", 9_999],
    // Copied from a page: formatMoney's own format, currency code included.
    ["207,000.00", 20_700_000],
    ["USD\u00a0207,000.00", 20_700_000],
    ["mxn 1,234,567.5", 123_456_750],
    ["1,234", 123_400],
    // Dot thousands with a decimal comma.
    ["70.000,00", 7_000_000],
    ["1.500,5", 150_050],
    ["1.234.567,89", 123_456_789],
  ])("%s → %i", (input, cents) => expect(parseAmountToCents(input)).toBe(cents));

  it.each([
    "",
    "abc",
    "-5",
    "1e3",
    "12.345",
    "1.234",
    "1.500.000",
    "1.50,00",
    "1.234,567",
    "1,2,3",
    "0x10",
    "NaN",
    "99999999999999",
    "1,23,456",
    "1234,567.00",
    "1,234,50",
    "USDX5",
    "EUR",
  ])("refuses %s", (input) => expect(parseAmountToCents(input)).toBeNull());

  it("refuses non-strings", () => {
    expect(parseAmountToCents(null)).toBeNull();
    expect(parseAmountToCents(undefined)).toBeNull();
    expect(parseAmountToCents({})).toBeNull();
  });

  it("reads back every amount formatMoney prints, in every currency", () => {
    for (const cents of [1, 99, 100_000, 123_456, 20_700_000, 100_000_000_07]) {
      for (const currency of SUPPORTED_CURRENCIES) {
        expect(parseAmountToCents(formatMoney(cents, currency))).toBe(cents);
      }
    }
  });

  it("round-trips every cent value through the input format, with either separator", () => {
    for (const cents of [0, 1, 9, 10, 99, 100, 101, 123_456, 100_000_000_07]) {
      const text = centsToInput(cents);
      expect(parseAmountToCents(text)).toBe(cents);
      expect(parseAmountToCents(text.replace(".", ","))).toBe(cents);
    }
  });
});

describe("formatMoney", () => {
  it("formats es-MX with the platform currency", () => {
    // es-MX names foreign currencies by code, which is unambiguous for every buyer.
    expect(formatMoney(123_450)).toBe("USD\u00a01,234.50");
    expect(formatMoney(5, "USD")).toBe("USD\u00a00.05");
    expect(formatMoney(100_000_00, "MXN")).toBe("$100,000.00");
    expect(formatMoney(100_000_00, "EUR")).toBe("EUR\u00a0100,000.00");
  });
  it("shows a dash for no amount", () => {
    expect(formatMoney(null)).toBe("—");
    expect(formatMoney(undefined)).toBe("—");
  });
});

describe("commissionCents", () => {
  it("is final × pct / 100, rounded half up to the cent", () => {
    expect(commissionCents(100_000, 5)).toBe(5_000);
    expect(commissionCents(123_45, 5)).toBe(617); // 617.25
    expect(commissionCents(10, 5)).toBe(1); // 0.5 → 1
    expect(commissionCents(100_000, 5.25)).toBe(5_250);
    expect(commissionCents(0, 5)).toBe(0);
  });
});

describe("formatCompactMoney", () => {
  it("abrevia miles, millones y miles de millones sin decimales de más", () => {
    expect(formatCompactMoney(0)).toBe("USD\u00a00");
    expect(formatCompactMoney(99)).toBe("USD\u00a01");
    expect(formatCompactMoney(123_456)).toBe("USD\u00a01.2 mil");
    expect(formatCompactMoney(35_000_000)).toBe("USD\u00a0350 mil");
    expect(formatCompactMoney(123_456_789)).toBe("USD\u00a01.2 M");
    expect(formatCompactMoney(999_999_999_999)).toBe("USD\u00a010 mil M");
    expect(formatCompactMoney(-250_000_00, "MXN")).toBe("-$250 mil");
  });
});

describe("amounts written out as Intl's es-MX currency format prints them", () => {
  const intl = (currency: string, min: number, max: number) =>
    new Intl.NumberFormat("es-MX", {
      style: "currency",
      currency,
      minimumFractionDigits: min,
      maximumFractionDigits: max,
    });
  let seed = 11;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const cents = [0, 1, -1, 5, 99, 100, 105, 999, 1_000, 99_999, 100_000, 123_456_789, -500];
  for (let i = 0; i < 1_000; i++) {
    cents.push(Math.round((random() - 0.3) * 10 ** Math.floor(random() * 13)));
  }

  it.each(SUPPORTED_CURRENCIES)("%s: every amount and every compact amount", (currency) => {
    const full = intl(currency, 2, 2);
    const whole = intl(currency, 0, 0);
    const tenth = intl(currency, 0, 1);
    for (const amount of cents) {
      expect(formatMoney(amount, currency)).toBe(full.format(amount / 100));
      const value = amount / 100;
      const step = (
        [
          [1e9, " mil M"],
          [1e6, " M"],
          [1e3, " mil"],
        ] as const
      ).find(([from]) => Math.abs(value) >= from);
      expect(formatCompactMoney(amount, currency)).toBe(
        step ? `${tenth.format(value / step[0])}${step[1]}` : whole.format(value),
      );
    }
    // Halves round away from zero, as Intl does.
    expect(formatCompactMoney(16_725_000, currency)).toContain(`${tenth.format(167.25)} mil`);
  });
});
