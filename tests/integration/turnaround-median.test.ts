import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { median } from "~/domain/analytics";
import { getAnalytics } from "~/models/analytics.server";
import { db } from "~/services/db.server";

/**
 * The median turnaround is found hour → minute → second in the bucket tables the triggers keep;
 * it must equal the median of the seconds themselves, to the second, whatever their spread.
 */

let nextRequest = 1;

async function addTurnarounds(seconds: number[]) {
  for (const s of seconds) {
    // request_turnaround rows only feed the buckets; no request row is needed for the median.
    await sql`INSERT INTO request_turnaround (quote_request_id, seconds) VALUES (${nextRequest++}, ${s})`.execute(
      db,
    );
  }
}

async function medianHours() {
  return (await getAnalytics(db)).turnaround.medianHours;
}

describe("mediana del tiempo hasta la primera cotización", () => {
  it("coincide al segundo con la mediana de los tiempos, par e impar, dentro de una misma hora", async () => {
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
    const seen: number[] = [];
    let state = 7;
    const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
    for (const batch of [1, 2, 7, 60, 301]) {
      // Many values inside one hour (the case the minute level exists for), some far away.
      const values = Array.from({ length: batch }, (_, i) =>
        i % 5 === 0 ? Math.floor(random() * 200 * 3600) : 36 * 3600 + Math.floor(random() * 3600),
      );
      await addTurnarounds(values);
      seen.push(...values);
      expect(await medianHours()).toBeCloseTo(median(seen.map((s) => s / 3600))!, 9);
    }
    const removed = await sql<{ seconds: number }>`
      DELETE FROM request_turnaround WHERE quote_request_id % 3 = 0 RETURNING seconds`.execute(db);
    for (const { seconds } of removed.rows) seen.splice(seen.indexOf(Number(seconds)), 1);
    expect(await medianHours()).toBeCloseTo(median(seen.map((s) => s / 3600))!, 9);
  });

  it("encuentra un tiempo en el último segundo del último minuto de una hora, y negativos", async () => {
    await sql`DELETE FROM request_turnaround`.execute(db);
    await addTurnarounds([3599, 3599, 3599, 7200]);
    expect(await medianHours()).toBe(3599 / 3600);
    await sql`DELETE FROM request_turnaround`.execute(db);
    await addTurnarounds([-61, -1, 59]);
    expect(await medianHours()).toBe(-1 / 3600);
  });
});
