import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { AssignmentState, RequestStatus } from "../../db/schema";
import type { PartnerFilter } from "~/domain/quote-status";
import { listAssignments } from "~/models/partner-assignment.server";
import {
  adminSetStatus,
  approvePartnerQuote,
  assignPartner,
  buyerRejectQuote,
  recordBuyerApproval,
  submitPartnerQuote,
} from "~/models/quote-lifecycle.server";
import { cancelRequest } from "~/models/request-changes.server";
import { declineAssignment, extendDeadline, reopenRequest } from "~/models/sourcing-round.server";
import { db } from "~/services/db.server";
import { decodeCursor, NUMBERED_PAGES, type PageRequest } from "~/utils/keyset";
import { makeRequest, makeUser } from "./factories";

/**
 * The partner's assignments list by deadline is read from index ranges over columns the triggers
 * keep (migration 2026-11-27T10-00_partner_list_order). Whatever the states, statuses and
 * deadlines, and after the round's real steps, it must show what sorting every assignment by the
 * former key showed: open ones (invited or offered, request assigned, deadline after now) by
 * deadline ascending, then the rest by deadline descending, ties by assignment id.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
const at = (offset: number) => new Date(NOW.getTime() + offset).toISOString();
const FILTERS: PartnerFilter[] = ["all", "pending", "quoted", "won"];

/** The order as it was computed before: one key over every assignment of the partner, sorted. */
async function formerOrder(partnerId: number, filter: PartnerFilter, now: Date) {
  const condition = {
    all: sql`1 = 1`,
    pending: sql`pa.state = 'invited' AND pq.id IS NULL AND qr.status = 'assigned'`,
    quoted: sql`pq.id IS NOT NULL`,
    won: sql`pq.is_selected = 1`,
  }[filter];
  const { rows } = await sql<{ id: number }>`SELECT pa.id FROM partner_assignments pa
    JOIN quote_requests qr ON qr.id = pa.quote_request_id
    LEFT JOIN partner_quotes pq
      ON pq.quote_request_id = pa.quote_request_id AND pq.partner_id = pa.partner_id
    WHERE pa.partner_id = ${partnerId} AND ${condition}
    ORDER BY CASE WHEN pa.state IN ('invited', 'offered') AND qr.status = 'assigned'
        AND qr.quote_deadline > ${now.toISOString()}
      THEN '0' || qr.quote_deadline
      ELSE '1' || printf('%017.8f', 9999999 - julianday(qr.quote_deadline)) END, pa.id`.execute(db);
  return rows.map((row) => row.id);
}

const ids = (items: { assignment_id: number }[]) => items.map((item) => item.assignment_id);

/**
 * Every page of the list: numbered pages, then forward by the pages' `after` links to the end,
 * then back by their `before` links to the start; each way must give the former order.
 */
async function expectFormerOrder(
  partnerId: number,
  filter: PartnerFilter,
  now: Date,
  pageSize = 4,
) {
  const expected = await formerOrder(partnerId, filter, now);
  const read = (page: PageRequest) =>
    listAssignments(db, { partnerId, filter, page, pageSize, now });

  for (let number = 1; number <= NUMBERED_PAGES; number++) {
    const { items } = await read({ kind: "numbered", page: number });
    expect(ids(items), `${filter}, página ${number}`).toEqual(
      expected.slice((number - 1) * pageSize, number * pageSize),
    );
  }

  const forward: number[][] = [];
  let page: PageRequest = { kind: "numbered", page: 1 };
  let last = await read(page);
  forward.push(ids(last.items));
  while (last.pageInfo.next) {
    page = { kind: "after", cursor: decodeCursor(last.pageInfo.next)! };
    last = await read(page);
    forward.push(ids(last.items));
    expect(forward.length).toBeLessThan(100);
  }
  expect(forward.flat(), `${filter}, hacia adelante`).toEqual(expected);
  expect(last.pageInfo.page).toBe(Math.max(1, Math.ceil(expected.length / pageSize)));

  const backward: number[][] = [ids(last.items)];
  while (last.pageInfo.prev) {
    last = await read({ kind: "before", cursor: decodeCursor(last.pageInfo.prev)! });
    backward.unshift(ids(last.items));
    expect(backward.length).toBeLessThan(100);
  }
  expect(backward, `${filter}, hacia atrás`).toEqual(forward);
  expect(last.pageInfo.page).toBe(1);
  return expected;
}

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number) {
  let state = seed;
  return <T>(choices: readonly T[]): T => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return choices[Math.floor(state / 65_536) % choices.length]!;
  };
}

const STATUSES: RequestStatus[] = [
  "pending",
  "assigned",
  "assigned",
  "assigned",
  "quoted",
  "approved",
  "paid",
  "rejected",
  "cancelled",
];
const STATES: AssignmentState[] = [
  "invited",
  "invited",
  "offered",
  "offered",
  "declined",
  "withdrawn",
  "selected",
  "not_selected",
];
/** Deadlines past and future, several shared (ties), one exactly now. */
const OFFSETS = [-3 * DAY, -2 * HOUR, -MIN, 0, 1, MIN, 2 * HOUR, 12 * HOUR, 12 * HOUR, 3 * DAY];

async function assign(
  requestId: number,
  partnerId: number,
  state: AssignmentState,
  quote: "none" | "quoted" | "selected",
) {
  await db
    .insertInto("partner_assignments")
    .values({ quote_request_id: requestId, partner_id: partnerId, state })
    .execute();
  if (quote !== "none")
    await db
      .insertInto("partner_quotes")
      .values({
        quote_request_id: requestId,
        partner_id: partnerId,
        quoted_amount_cents: 100_000,
        is_selected: quote === "selected" ? 1 : 0,
        updated_at: NOW.toISOString(),
      })
      .execute();
}

describe("the partner's assignments by deadline", () => {
  let partner = 0;

  beforeAll(async () => {
    const buyer = await makeUser("buyer");
    partner = await makeUser("partner");
    const other = await makeUser("partner");
    const pick = generator(20261127);
    for (let i = 0; i < 70; i++) {
      const status = pick(STATUSES);
      const state = pick(STATES);
      const requestId = await makeRequest(buyer, status, `Pedido ${i}`);
      await sql`UPDATE quote_requests SET quote_deadline = ${at(pick(OFFSETS))}
        WHERE id = ${requestId}`.execute(db);
      const offered = state === "offered" || state === "selected" || state === "not_selected";
      // Once an open offer selected on an assigned request (an operator's status override).
      const quote = state === "selected" || (i === 7 && offered) ? "selected" : "quoted";
      await assign(requestId, partner, i === 7 ? "offered" : state, offered ? quote : "none");
      if (i % 3 === 0) await assign(requestId, other, pick(STATES), "none");
    }
  });

  it("shows every filter in the former order, page by page both ways", async () => {
    const all = await expectFormerOrder(partner, "all", NOW);
    expect(all).toHaveLength(70);
    for (const filter of FILTERS.slice(1)) {
      expect((await expectFormerOrder(partner, filter, NOW)).length).toBeGreaterThan(4);
    }
  });

  it("starts over from a link of another order (a search's, the former key's)", async () => {
    const firstPage = await listAssignments(db, { partnerId: partner, pageSize: 4, now: NOW });
    const expected = (await formerOrder(partner, "all", NOW)).slice(0, 4);
    expect(ids(firstPage.items)).toEqual(expected);
    for (const key of ["", "107539999.12345678"]) {
      const page = await listAssignments(db, {
        partnerId: partner,
        page: { kind: "after", cursor: { page: 3, key, id: expected[0]! } },
        pageSize: 4,
        now: NOW,
      });
      expect(ids(page.items)).toEqual(expected);
      expect(page.pageInfo).toEqual(firstPage.pageInfo);
    }
  });

  it("moves open assignments whose deadline passes to the second part", async () => {
    for (const now of [new Date(NOW.getTime() + 5 * HOUR), new Date(NOW.getTime() + 4 * DAY)])
      for (const filter of FILTERS) await expectFormerOrder(partner, filter, now, 6);
  });
});

describe("the round's steps keep the order current", () => {
  it("after an extension, a decline, offers, approval, sending, cancelling and a reopening", async () => {
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer");
    const partner = await makeUser("partner");
    const rival = await makeUser("partner");
    const requests: number[] = [];
    // Deadlines close together, so each step below moves a row past others.
    for (const [i, offset] of [5, 3, 8, 1, 6, 2, 7, 4, 9, 3].entries()) {
      const requestId = await makeRequest(buyer, "pending", `Ronda ${i}`);
      await sql`UPDATE quote_requests SET quote_deadline = ${at(offset * HOUR)}
        WHERE id = ${requestId}`.execute(db);
      for (const partnerId of [partner, rival])
        expect((await assignPartner(db, { requestId, partnerId, adminId: admin })).ok).toBe(true);
      requests.push(requestId);
    }
    const [extended, declined, offered, approved, sent, cancelled, reopened, overridden] =
      requests as [number, number, number, number, number, number, number, number];
    const check = async () => {
      for (const filter of FILTERS) await expectFormerOrder(partner, filter, NOW, 3);
      // Past every deadline: the second part alone, by deadline descending.
      await expectFormerOrder(partner, "all", new Date(NOW.getTime() + 30 * DAY), 3);
    };
    const offer = (requestId: number, partnerId: number) =>
      submitPartnerQuote(db, {
        requestId,
        partnerId,
        amountCents: 150_000,
        notes: null,
        file: null,
      });
    const quoteOf = async (requestId: number, partnerId: number) =>
      (
        await db
          .selectFrom("partner_quotes")
          .select("id")
          .where("quote_request_id", "=", requestId)
          .where("partner_id", "=", partnerId)
          .executeTakeFirstOrThrow()
      ).id;
    await check();

    expect(
      (await extendDeadline(db, { requestId: extended, adminId: admin, deadline: at(20 * HOUR) }))
        .ok,
    ).toBe(true);
    await check();

    expect(
      (
        await declineAssignment(db, {
          requestId: declined,
          partnerId: partner,
          reason: "Sin stock",
        })
      ).ok,
    ).toBe(true);
    await check();

    for (const requestId of [offered, approved, sent, reopened])
      expect((await offer(requestId, partner)).ok).toBe(true);
    for (const requestId of [approved, sent, reopened])
      expect((await offer(requestId, rival)).ok).toBe(true);
    await check();

    // Quoted: the partner's offer selected on one, the rival's on the others.
    const approve = async (requestId: number, partnerId: number) =>
      expect(
        (
          await approvePartnerQuote(db, {
            requestId,
            partnerQuoteId: await quoteOf(requestId, partnerId),
            adminId: admin,
          })
        ).ok,
      ).toBe(true);
    await approve(approved, partner);
    await approve(sent, rival);
    await approve(reopened, partner);
    await check();

    // Approved: sent to the buyer for payment.
    expect(
      (await recordBuyerApproval(db, { requestId: sent, adminId: admin, note: "Por teléfono" })).ok,
    ).toBe(true);
    await check();

    expect(
      (
        await cancelRequest(db, {
          requestId: cancelled,
          buyerId: buyer,
          reason: "Ya no lo necesito",
        })
      ).ok,
    ).toBe(true);
    await check();

    expect(
      (await recordBuyerApproval(db, { requestId: reopened, adminId: admin, note: "Por teléfono" }))
        .ok,
    ).toBe(true);
    expect(
      (await buyerRejectQuote(db, { requestId: reopened, buyerId: buyer, reason: "Muy caro" })).ok,
    ).toBe(true);
    await check();
    expect(
      (await reopenRequest(db, { requestId: reopened, adminId: admin, deadline: at(90 * MIN) })).ok,
    ).toBe(true);
    await check();

    // The operator's override back to assigned reopens the row for the partner.
    expect(
      (
        await adminSetStatus(db, {
          requestId: approved,
          status: "assigned",
          adminId: admin,
          note: null,
        })
      ).ok,
    ).toBe(true);
    expect(
      (
        await adminSetStatus(db, {
          requestId: overridden,
          status: "rejected",
          adminId: admin,
          note: null,
        })
      ).ok,
    ).toBe(true);
    await check();
  });
});
