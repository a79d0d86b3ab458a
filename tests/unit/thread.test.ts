import { describe, expect, it } from "vitest";
import type { AssignmentState } from "../../db/schema";
import {
  authorLabel,
  DIGEST_INTERVAL_MS,
  excerpt,
  isUnread,
  maySeeThread,
  nextDigestAt,
  parseThreadKey,
  postRefusal,
  TEAM_NAME,
  threadKey,
  type ThreadScope,
} from "~/domain/thread";

const BUYER = 10;
const PARTNER = 20;
const buyerThread: ThreadScope = {
  kind: "buyer",
  buyerId: BUYER,
  partnerId: null,
  assignmentState: null,
};
const partnerThread = (state: AssignmentState): ThreadScope => ({
  kind: "partner",
  buyerId: BUYER,
  partnerId: PARTNER,
  assignmentState: state,
});

describe("who may see a thread", () => {
  it("lets operators see every thread, whatever the partner's state", () => {
    const admin = { id: 1, role: "admin" as const };
    expect(maySeeThread(admin, buyerThread)).toBe(true);
    expect(maySeeThread(admin, partnerThread("withdrawn"))).toBe(true);
  });

  it("lets the buyer see only their own request's buyer thread", () => {
    expect(maySeeThread({ id: BUYER, role: "buyer" }, buyerThread)).toBe(true);
    expect(maySeeThread({ id: BUYER + 1, role: "buyer" }, buyerThread)).toBe(false);
    expect(maySeeThread({ id: BUYER, role: "buyer" }, partnerThread("invited"))).toBe(false);
  });

  it("lets a partner see only their own thread, while invited, offered or selected", () => {
    const partner = { id: PARTNER, role: "partner" as const };
    for (const state of ["invited", "offered", "selected"] as const) {
      expect(maySeeThread(partner, partnerThread(state))).toBe(true);
    }
    for (const state of ["declined", "withdrawn", "not_selected"] as const) {
      expect(maySeeThread(partner, partnerThread(state))).toBe(false);
    }
    expect(maySeeThread({ id: PARTNER + 1, role: "partner" }, partnerThread("invited"))).toBe(
      false,
    );
    expect(maySeeThread(partner, buyerThread)).toBe(false);
  });
});

describe("when a thread takes messages", () => {
  it("refuses every thread of a cancelled request and the thread of a partner who left", () => {
    expect(postRefusal("assigned", buyerThread)).toBeNull();
    expect(postRefusal("paid", buyerThread)).toBeNull();
    expect(postRefusal("cancelled", buyerThread)).toMatch(/cancelada/);
    expect(postRefusal("assigned", partnerThread("offered"))).toBeNull();
    expect(postRefusal("assigned", partnerThread("withdrawn"))).toMatch(/ya no participa/);
  });
});

describe("thread keys in URLs", () => {
  it("round-trips and refuses anything else", () => {
    expect(threadKey({ kind: "buyer" })).toBe("comprador");
    expect(threadKey({ kind: "partner", partnerId: 7 })).toBe("socio-7");
    expect(parseThreadKey("comprador")).toEqual({ kind: "buyer" });
    expect(parseThreadKey("socio-7")).toEqual({ kind: "partner", partnerId: 7 });
    for (const bad of ["socio-0", "socio-07", "socio-", "socio-1x", "buyer", undefined]) {
      expect(parseThreadKey(bad)).toBeNull();
    }
  });
});

describe("authors and unread messages", () => {
  const fromAdmin = { authorId: 1, authorRole: "admin" as const, authorName: "Alicia Ruiz" };
  const fromBuyer = { authorId: BUYER, authorRole: "buyer" as const, authorName: "Beatriz · ACME" };

  it("shows the team, never an operator's name, to buyers and partners", () => {
    expect(authorLabel({ id: BUYER, role: "buyer" }, fromAdmin)).toBe(TEAM_NAME);
    expect(authorLabel({ id: PARTNER, role: "partner" }, fromAdmin)).toBe(TEAM_NAME);
    expect(authorLabel({ id: BUYER, role: "buyer" }, fromBuyer)).toBe("Tú");
  });

  it("shows operators who wrote", () => {
    expect(authorLabel({ id: 2, role: "admin" }, fromBuyer)).toBe("Beatriz · ACME");
    expect(authorLabel({ id: 2, role: "admin" }, fromAdmin)).toBe("Alicia Ruiz (equipo)");
    expect(authorLabel({ id: 1, role: "admin" }, fromAdmin)).toBe("Tú");
  });

  it("counts as unread only what the other side wrote after the marker", () => {
    expect(isUnread({ role: "buyer" }, { id: 5, authorRole: "admin" }, 4)).toBe(true);
    expect(isUnread({ role: "buyer" }, { id: 5, authorRole: "admin" }, 5)).toBe(false);
    expect(isUnread({ role: "buyer" }, { id: 9, authorRole: "buyer" }, 0)).toBe(false);
    expect(isUnread({ role: "admin" }, { id: 9, authorRole: "admin" }, 0)).toBe(false);
  });
});

describe("the digest's pace", () => {
  const now = new Date("2026-12-01T10:00:00.000Z");
  it("mails at once the first time, then no sooner than 10 minutes after the last e-mail", () => {
    expect(nextDigestAt(null, now)).toEqual(now);
    expect(nextDigestAt("2026-12-01T09:55:00.000Z", now).toISOString()).toBe(
      "2026-12-01T10:05:00.000Z",
    );
    expect(nextDigestAt("2026-12-01T09:40:00.000Z", now)).toEqual(now);
    expect(DIGEST_INTERVAL_MS).toBe(600_000);
  });

  it("shortens long bodies on one line", () => {
    expect(excerpt("uno\n\ndos")).toBe("uno dos");
    expect(excerpt("x".repeat(200), 10)).toBe(`${"x".repeat(9)}…`);
  });
});
