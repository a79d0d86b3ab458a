/**
 * Page requests take turns with the event loop (takeTurn in edge.server.ts): requests that arrive
 * together run in order, and a timer that falls due during one runs before the next one starts.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { takeTurn } from "~/services/edge.server";

const req = {} as IncomingMessage;
const res = {} as ServerResponse;
const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe("takeTurn", () => {
  it("serves requests first come, first served, with the timers due between them", async () => {
    const order: string[] = [];
    for (const name of ["a", "b", "c"]) {
      takeTurn(req, res, () => {
        order.push(name);
        // A timer set during a request falls due while it still runs (its work is synchronous).
        setTimeout(() => order.push(`timer ${name}`), 0);
        busy(5);
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(order).toEqual(["a", "timer a", "b", "timer b", "c", "timer c"]);
  });

  it("starts a request that arrives after the queue emptied", async () => {
    const order: string[] = [];
    takeTurn(req, res, () => order.push("first"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    takeTurn(req, res, () => order.push("second"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(["first", "second"]);
  });
});
