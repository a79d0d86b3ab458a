import { describe, expect, it } from "vitest";
import type { RequestStatus } from "../../db/schema";
import {
  canAdminOverride,
  canTransition,
  nextStatus,
  TRANSITIONS,
  type QuoteAction,
} from "~/domain/quote-status";

/*
 * The expectations below are written out by hand from DECISIONS §3, not computed from TRANSITIONS,
 * so a wrong edit of the table fails here. Every (from, to) and every (status, action) pair is
 * asserted: the allowed ones and the refused ones.
 */

const STATUSES: RequestStatus[] = [
  "pending",
  "assigned",
  "quoted",
  "approved",
  "paid",
  "rejected",
  "cancelled",
];

const ACTIONS: QuoteAction[] = [
  "assign_partner",
  "submit_partner_quote",
  "approve_partner_quote",
  "create_manual_quote",
  "record_buyer_approval",
  "buyer_approve",
  "buyer_reject",
  "submit_payment_proof",
  "confirm_payment",
  "buyer_cancel",
  "buyer_edit",
  "reopen",
  "extend_deadline",
  "decline_assignment",
  "withdraw_assignment",
  "revise_official_quote",
  "request_renewal",
];

/** The only status moves the product makes on its own (the operator's override aside). */
const ALLOWED_MOVES = new Set([
  "pending→assigned",
  "pending→quoted",
  "assigned→quoted",
  "quoted→approved",
  "quoted→rejected",
  "approved→paid",
  "approved→rejected",
  "pending→cancelled",
  "assigned→cancelled",
  "quoted→cancelled",
  "approved→cancelled",
  "rejected→assigned",
]);

const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));

describe("canTransition: every (from, to) pair", () => {
  it("covers all 49 pairs, 12 of them allowed", () => {
    expect(pairs).toHaveLength(49);
    expect(pairs.filter(([from, to]) => ALLOWED_MOVES.has(`${from}→${to}`))).toHaveLength(12);
  });

  it.each(pairs.filter(([from, to]) => ALLOWED_MOVES.has(`${from}→${to}`)))(
    "allows %s → %s",
    (from, to) => {
      expect(canTransition(from, to)).toBe(true);
    },
  );

  it.each(pairs.filter(([from, to]) => !ALLOWED_MOVES.has(`${from}→${to}`)))(
    "refuses %s → %s",
    (from, to) => {
      expect(canTransition(from, to)).toBe(false);
    },
  );
});

/**
 * Every allowed (status, action) pair and the status it leads to; every other pair is refused.
 * Written out from DECISIONS §3 and §6.
 */
const ALLOWED_ACTIONS: readonly (readonly [RequestStatus, QuoteAction, RequestStatus])[] = [
  ["pending", "assign_partner", "assigned"],
  ["pending", "create_manual_quote", "quoted"],
  ["pending", "buyer_cancel", "cancelled"],
  ["pending", "buyer_edit", "pending"],
  ["pending", "extend_deadline", "pending"],
  ["assigned", "assign_partner", "assigned"],
  ["assigned", "submit_partner_quote", "assigned"],
  ["assigned", "approve_partner_quote", "quoted"],
  ["assigned", "create_manual_quote", "quoted"],
  ["assigned", "buyer_cancel", "cancelled"],
  ["assigned", "buyer_edit", "assigned"],
  ["assigned", "extend_deadline", "assigned"],
  ["assigned", "decline_assignment", "assigned"],
  ["assigned", "withdraw_assignment", "assigned"],
  ["quoted", "record_buyer_approval", "approved"],
  ["quoted", "buyer_approve", "approved"],
  ["quoted", "buyer_reject", "rejected"],
  ["quoted", "buyer_cancel", "cancelled"],
  ["quoted", "revise_official_quote", "quoted"],
  ["quoted", "request_renewal", "quoted"],
  ["approved", "buyer_reject", "rejected"],
  ["approved", "submit_payment_proof", "approved"],
  ["approved", "confirm_payment", "paid"],
  ["approved", "buyer_cancel", "cancelled"],
  ["approved", "revise_official_quote", "approved"],
  ["approved", "request_renewal", "approved"],
  ["paid", "confirm_payment", "paid"],
  ["rejected", "reopen", "assigned"],
];

const NEXT = (status: RequestStatus, action: QuoteAction) =>
  ALLOWED_ACTIONS.find(([s, a]) => s === status && a === action)?.[2] ?? null;

const actionCases = STATUSES.flatMap((status) =>
  ACTIONS.map((action) => [status, action, NEXT(status, action)] as const),
);

describe("nextStatus: every (status, action) pair", () => {
  it("covers all 119 pairs, 28 of them allowed", () => {
    expect(actionCases).toHaveLength(119);
    expect(actionCases.filter(([, , to]) => to !== null)).toHaveLength(28);
  });

  it.each(actionCases.filter(([, , to]) => to !== null))(
    "in %s, %s is allowed and leads to %s",
    (status, action, to) => {
      expect(nextStatus(status, action)).toBe(to);
    },
  );

  it.each(actionCases.filter(([, , to]) => to === null))(
    "in %s, %s is refused",
    (status, action) => {
      expect(nextStatus(status, action)).toBeNull();
    },
  );
});

describe("who may move a request", () => {
  it("lists exactly these moves with their action and actor", () => {
    const table = Object.entries(TRANSITIONS).flatMap(([from, moves]) =>
      moves.map((m) => `${from}→${m.to} ${m.action} by ${m.by}`),
    );
    expect(table.sort()).toEqual(
      [
        "pending→assigned assign_partner by admin",
        "pending→quoted create_manual_quote by admin",
        "assigned→quoted approve_partner_quote by admin",
        "assigned→quoted create_manual_quote by admin",
        "quoted→approved record_buyer_approval by admin",
        "quoted→approved buyer_approve by buyer",
        "quoted→rejected buyer_reject by buyer",
        "approved→paid confirm_payment by admin",
        "approved→rejected buyer_reject by buyer",
        "pending→cancelled buyer_cancel by buyer",
        "assigned→cancelled buyer_cancel by buyer",
        "quoted→cancelled buyer_cancel by buyer",
        "approved→cancelled buyer_cancel by buyer",
        "rejected→assigned reopen by admin",
      ].sort(),
    );
  });

  it("never lets a partner move a status", () => {
    for (const status of STATUSES) {
      for (const move of TRANSITIONS[status]) expect(move.by).not.toBe("partner");
    }
  });
});

describe("canAdminOverride: every (from, to) pair", () => {
  it.each(pairs.filter(([from, to]) => from !== to))(
    "lets the operator set %s → %s",
    (from, to) => {
      expect(canAdminOverride(from, to)).toBe(true);
    },
  );

  it.each(STATUSES.map((s) => [s, s] as const))(
    "does not count %s → %s as a change",
    (from, to) => {
      expect(canAdminOverride(from, to)).toBe(false);
    },
  );
});
