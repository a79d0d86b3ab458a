import { describe, expect, it } from "vitest";
import {
  cancelReasonProblem,
  dayOf,
  defaultDeadline,
  parseDayInput,
  parseDeadlineInput,
  requestDatesProblems,
  timeLeft,
  toDeadlineInput,
} from "~/domain/request-dates";

const NOW = new Date("2026-11-26T10:30:00.000Z");

describe("the deadline field (datetime-local, read as UTC)", () => {
  it("reads what the browser sends as the same wall time in UTC", () => {
    expect(parseDeadlineInput("2026-12-03T17:00")).toBe("2026-12-03T17:00:00.000Z");
    expect(parseDeadlineInput("2026-12-03T17:00:30")).toBe("2026-12-03T17:00:00.000Z");
    expect(toDeadlineInput("2026-12-03T17:00:59.999Z")).toBe("2026-12-03T17:00");
  });

  it("refuses what is not a real date and time", () => {
    for (const value of [
      "",
      "mañana",
      "2026-12-03",
      "2026-02-30T10:00",
      "2026-12-03T24:00",
      "2026-12-03T10:60",
    ]) {
      expect(parseDeadlineInput(value), value).toBeNull();
    }
  });

  it("the needed-by field takes a real day only", () => {
    expect(parseDayInput("2026-12-15")).toBe("2026-12-15");
    expect(parseDayInput("2028-02-29")).toBe("2028-02-29");
    expect(parseDayInput("2026-02-29")).toBeNull();
    expect(parseDayInput("15/12/2026")).toBeNull();
  });

  it("defaults to now + «días para cotizar»", () => {
    expect(defaultDeadline(3, NOW)).toBe("2026-11-29T10:30:00.000Z");
    expect(dayOf(defaultDeadline(3, NOW))).toBe("2026-11-29");
  });
});

describe("requestDatesProblems", () => {
  const check = (
    quoteDeadline: string,
    neededBy: string | null,
    changed?: { quoteDeadline: boolean; neededBy: boolean },
  ) => requestDatesProblems({ quoteDeadline, neededBy }, NOW, changed);

  it("accepts a deadline in the next 90 days and a needed-by day from the deadline's day on", () => {
    expect(check("2026-11-26T10:31:00.000Z", null)).toBeNull();
    expect(check("2027-02-24T10:30:00.000Z", "2027-02-24")).toBeNull();
  });

  it("refuses a deadline now or earlier, or more than 90 days ahead", () => {
    expect(check("2026-11-26T10:30:00.000Z", null)).toEqual({
      quote_deadline: ["El plazo para cotizar debe ser posterior a este momento."],
    });
    expect(check("2027-02-24T10:31:00.000Z", null)).toEqual({
      quote_deadline: ["El plazo para cotizar no puede superar 90 días desde hoy."],
    });
  });

  it("refuses a needed-by day before today, or before the deadline's day", () => {
    expect(check("2026-11-29T10:30:00.000Z", "2026-11-25")).toEqual({
      needed_by: ["La fecha requerida no puede ser anterior a hoy."],
    });
    expect(check("2026-11-29T10:30:00.000Z", "2026-11-28")).toEqual({
      needed_by: [expect.stringMatching(/anterior al día del plazo/)],
    });
  });

  it("checks only what changed; a moved deadline is checked against the needed-by day kept", () => {
    const unchanged = { quoteDeadline: false, neededBy: false };
    expect(check("2026-11-01T00:00:00.000Z", "2026-11-01", unchanged)).toBeNull();
    expect(
      check("2026-12-20T00:00:00.000Z", "2026-12-10", { quoteDeadline: true, neededBy: false }),
    ).toEqual({ needed_by: [expect.stringMatching(/anterior al día del plazo/)] });
  });
});

describe("timeLeft", () => {
  it("says what is left of the deadline in words, and nothing once it has passed", () => {
    expect(timeLeft("2026-11-28T14:30:00.000Z", NOW)).toBe("Quedan 2 días y 4 horas");
    expect(timeLeft("2026-11-27T11:30:00.000Z", NOW)).toBe("Queda 1 día y 1 hora");
    expect(timeLeft("2026-11-28T10:30:00.000Z", NOW)).toBe("Quedan 2 días");
    expect(timeLeft("2026-11-26T13:50:00.000Z", NOW)).toBe("Quedan 3 horas y 20 minutos");
    expect(timeLeft("2026-11-26T10:31:00.000Z", NOW)).toBe("Queda 1 minuto");
    expect(timeLeft("2026-11-26T10:30:30.000Z", NOW)).toBe("Queda menos de un minuto");
    expect(timeLeft("2026-11-26T10:30:00.000Z", NOW)).toBeNull();
  });
});

describe("the cancellation reason", () => {
  it("takes 3 to 1000 characters", () => {
    expect(cancelReasonProblem("  no ")).toMatch(/al menos 3 caracteres/);
    expect(cancelReasonProblem("sí, ")).toBeNull();
    expect(cancelReasonProblem("x".repeat(1000))).toBeNull();
    expect(cancelReasonProblem("x".repeat(1001))).toMatch(/1000 caracteres/);
  });
});
