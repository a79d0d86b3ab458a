import { describe, expect, it } from "vitest";
import {
  deadlineNote,
  isDeadlineFilter,
  offerDeadlineNote,
  requestDeadlineNote,
  timeLeftLabel,
} from "~/domain/deadline";
import { isPastDeadline } from "~/domain/assignment";

const NOW = new Date("2026-12-01T12:00:00.000Z");
const after = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe("timeLeftLabel", () => {
  it.each([
    [3 * DAY, "Vence en 3 días"],
    // The exact date is shown beside it: two days and a half read as three.
    [2 * DAY + 12 * HOUR, "Vence en 3 días"],
    [2 * DAY + 11 * HOUR, "Vence en 2 días"],
    [2 * DAY, "Vence en 2 días"],
    // Under two days, whole hours, never rounded up.
    [2 * DAY - 1, "Vence en 47 h"],
    [5 * HOUR + 59 * MIN, "Vence en 5 h"],
    [HOUR, "Vence en 1 h"],
    [HOUR - 1, "Vence en 59 min"],
    [12 * MIN + 30_000, "Vence en 12 min"],
    [10_000, "Vence en 1 min"],
    [1, "Vence en 1 min"],
    [0, "Plazo vencido"],
    [-5 * MIN, "Plazo vencido"],
    [-40 * DAY, "Plazo vencido"],
  ])("%s ms before the deadline → %s", (left, text) => {
    expect(timeLeftLabel(after(left), NOW)).toBe(text);
  });

  it("says «Plazo vencido» exactly when the offer rules say the deadline has passed", () => {
    for (const left of [-1, 0, 1]) {
      expect(timeLeftLabel(after(left), NOW) === "Plazo vencido").toBe(
        isPastDeadline(after(left), NOW),
      );
    }
  });
});

describe("deadlineNote", () => {
  it("is urgent within 24 h and loud once passed", () => {
    expect(deadlineNote(after(-1), NOW)).toEqual({ text: "Plazo vencido", tone: "overdue" });
    expect(deadlineNote(after(DAY), NOW)).toEqual({ text: "Vence en 24 h", tone: "soon" });
    expect(deadlineNote(after(DAY + 1), NOW)).toEqual({ text: "Vence en 24 h", tone: "later" });
    expect(deadlineNote(after(4 * DAY), NOW)).toEqual({ text: "Vence en 4 días", tone: "later" });
  });
});

describe("offerDeadlineNote: what a partner's row says", () => {
  const deadline = after(5 * HOUR);
  it("gives the time left while the partner may offer or revise", () => {
    expect(offerDeadlineNote("invited", "assigned", deadline, NOW)?.text).toBe("Vence en 5 h");
    expect(offerDeadlineNote("offered", "assigned", deadline, NOW)?.text).toBe("Vence en 5 h");
  });

  it("says «Plazo vencido» when only the deadline stops them", () => {
    expect(offerDeadlineNote("invited", "assigned", after(-HOUR), NOW)).toEqual({
      text: "Plazo vencido",
      tone: "overdue",
    });
  });

  it("says nothing once their part is closed for another reason", () => {
    expect(offerDeadlineNote("declined", "assigned", deadline, NOW)).toBeNull();
    expect(offerDeadlineNote("withdrawn", "assigned", deadline, NOW)).toBeNull();
    expect(offerDeadlineNote("selected", "quoted", deadline, NOW)).toBeNull();
    expect(offerDeadlineNote("not_selected", "quoted", deadline, NOW)).toBeNull();
    expect(offerDeadlineNote("offered", "quoted", deadline, NOW)).toBeNull();
    expect(offerDeadlineNote("invited", "cancelled", after(-HOUR), NOW)).toBeNull();
  });
});

describe("requestDeadlineNote: what an operator's row says", () => {
  it("speaks only of requests still open to offers", () => {
    expect(requestDeadlineNote("pending", after(2 * HOUR), NOW)?.text).toBe("Vence en 2 h");
    expect(requestDeadlineNote("assigned", after(-HOUR), NOW)?.text).toBe("Plazo vencido");
    for (const status of ["quoted", "approved", "paid", "rejected", "cancelled"] as const)
      expect(requestDeadlineNote(status, after(-HOUR), NOW)).toBeNull();
  });
});

describe("the desk's deadline parameters", () => {
  it("accepts only the filters it knows", () => {
    expect(isDeadlineFilter("due24h")).toBe(true);
    expect(isDeadlineFilter("overdue")).toBe(true);
    for (const value of ["", "due", "OVERDUE", null, undefined, 24]) {
      expect(isDeadlineFilter(value)).toBe(false);
    }
  });
});
