import { describe, expect, it } from "vitest";
import { sweepExpiredData } from "~/services/background.server";
import { db } from "~/services/db.server";
import { makeUser } from "./factories";

describe("start-up sweep", () => {
  it("deletes expired sessions and keeps live ones", async () => {
    const userId = await makeUser("buyer");
    const hour = 60 * 60_000;
    const at = (offset: number) => new Date(Date.now() + offset).toISOString();
    await db
      .insertInto("sessions")
      .values([
        { id: "caducada", user_id: userId, last_seen_at: at(-2 * hour), expires_at: at(-hour) },
        { id: "vigente", user_id: userId, last_seen_at: at(0), expires_at: at(hour) },
      ])
      .execute();

    await sweepExpiredData(db);

    const left = await db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", userId)
      .execute();
    expect(left).toEqual([{ id: "vigente" }]);
  });
});
