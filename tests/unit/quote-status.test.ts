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

const STATUSES: RequestStatus[] = ["pending", "assigned", "quoted", "approved", "paid", "rejected"];

const ACTIONS: QuoteAction[] = [
  "assign_partner",
  "submit_partner_quote",
  "approve_partner_quote",
  "create_manual_quote",
  "send_to_buyer",
  "buyer_approve",
  "buyer_reject",
  "submit_payment_proof",
  "confirm_payment",
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
]);

const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));

describe("canTransition: every (from, to) pair", () => {
  it("covers all 36 pairs, 7 of them allowed", () => {
    expect(pairs).toHaveLength(36);
    expect(pairs.filter(([from, to]) => ALLOWED_MOVES.has(`${from}→${to}`))).toHaveLength(7);
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

/** Status after each action in each status; null = refused. Rows: from-status; columns: action. */
const NEXT: Record<RequestStatus, Record<QuoteAction, RequestStatus | null>> = {
  pending: {
    assign_partner: "assigned",
    submit_partner_quote: null,
    approve_partner_quote: null,
    create_manual_quote: "quoted",
    send_to_buyer: null,
    buyer_approve: null,
    buyer_reject: null,
    submit_payment_proof: null,
    confirm_payment: null,
  },
  assigned: {
    assign_partner: "assigned",
    submit_partner_quote: "assigned",
    approve_partner_quote: "quoted",
    create_manual_quote: "quoted",
    send_to_buyer: null,
    buyer_approve: null,
    buyer_reject: null,
    submit_payment_proof: null,
    confirm_payment: null,
  },
  quoted: {
    assign_partner: null,
    submit_partner_quote: null,
    approve_partner_quote: null,
    create_manual_quote: null,
    send_to_buyer: "approved",
    buyer_approve: "approved",
    buyer_reject: "rejected",
    submit_payment_proof: null,
    confirm_payment: null,
  },
  approved: {
    assign_partner: null,
    submit_partner_quote: null,
    approve_partner_quote: null,
    create_manual_quote: null,
    send_to_buyer: null,
    buyer_approve: null,
    buyer_reject: "rejected",
    submit_payment_proof: "approved",
    confirm_payment: "paid",
  },
  paid: {
    assign_partner: null,
    submit_partner_quote: null,
    approve_partner_quote: null,
    create_manual_quote: null,
    send_to_buyer: null,
    buyer_approve: null,
    buyer_reject: null,
    submit_payment_proof: null,
    confirm_payment: "paid",
  },
  rejected: {
    assign_partner: null,
    submit_partner_quote: null,
    approve_partner_quote: null,
    create_manual_quote: null,
    send_to_buyer: null,
    buyer_approve: null,
    buyer_reject: null,
    submit_payment_proof: null,
    confirm_payment: null,
  },
};

const actionCases = STATUSES.flatMap((status) =>
  ACTIONS.map((action) => [status, action, NEXT[status][action]] as const),
);

describe("nextStatus: every (status, action) pair", () => {
  it("covers all 54 pairs", () => {
    expect(actionCases).toHaveLength(54);
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
        "quoted→approved send_to_buyer by admin",
        "quoted→approved buyer_approve by buyer",
        "quoted→rejected buyer_reject by buyer",
        "approved→paid confirm_payment by admin",
        "approved→rejected buyer_reject by buyer",
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
