import { describe, expect, it } from "vitest";
import { keysetCondition, pageStartsWithin } from "~/models/keyset.server";

const amount = { key: "p.amount_cents", id: "p.id", numeric: true } as const;
const after = (key: string) => ({ kind: "after" as const, cursor: { page: 2, id: 7, key } });

describe("keysetCondition on a numeric key", () => {
  it("seeks after a cursor whose key is a whole number", () => {
    expect(keysetCondition(after("125050"), amount)).not.toBeNull();
    expect(keysetCondition(after("-1"), amount)).not.toBeNull();
  });

  it.each(["abc", "", "1e308", "12.5", "Infinity", "9".repeat(16)])(
    "starts the list over for the forged key %j (NaN would be NULL and walk the index)",
    (key) => expect(keysetCondition(after(key), amount)).toBeNull(),
  );
});

describe("pageStartsWithin", () => {
  it("reads a page that starts within the list, not one past its end", () => {
    expect(pageStartsWithin(1, 25, 0)).toBe(false);
    expect(pageStartsWithin(1, 25, 1)).toBe(true);
    expect(pageStartsWithin(2, 25, 25)).toBe(false);
    expect(pageStartsWithin(2, 25, 26)).toBe(true);
    expect(pageStartsWithin(999_999, 25, 20_000)).toBe(false);
  });
});
