import { describe, expect, it } from "vitest";
import { keysetCondition } from "~/models/keyset.server";

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
