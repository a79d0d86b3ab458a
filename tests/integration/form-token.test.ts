import { describe, expect, it } from "vitest";
import {
  claimFormToken,
  formTokenOf,
  FormTokenAlreadyUsed,
  newFormToken,
  usedFormToken,
} from "~/services/form-token.server";
import { db, writeTransaction } from "~/services/db.server";
import { makeRequest, makeUser } from "./factories";

async function requestCount() {
  const row = await db
    .selectFrom("quote_requests")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What a create action does: the row and the token in one transaction. */
function create(buyerId: number, token: string | null) {
  return writeTransaction(db, async (tx) => {
    const id = await makeRequest(buyerId, "pending", "Solicitud de prueba", tx);
    await claimFormToken(tx, token, `/buyer/quotes/${id}`);
    return id;
  });
}

describe("one-time form tokens", () => {
  it("a second submit with the same token stores nothing and knows where the first led", async () => {
    const buyer = await makeUser("buyer");
    const token = newFormToken();
    const before = await requestCount();
    const id = await create(buyer, token);
    await expect(create(buyer, token)).rejects.toBeInstanceOf(FormTokenAlreadyUsed);
    expect(await requestCount()).toBe(before + 1);
    expect(await usedFormToken(db, token)).toBe(`/buyer/quotes/${id}`);
  });

  it("forms without a token are not deduplicated", async () => {
    const buyer = await makeUser("buyer");
    const before = await requestCount();
    await create(buyer, null);
    await create(buyer, null);
    expect(await requestCount()).toBe(before + 2);
    expect(await usedFormToken(db, null)).toBeNull();
  });

  it("only well-formed tokens are read from a form", () => {
    const form = new FormData();
    form.set("form_token", "x'; DROP TABLE users; --");
    expect(formTokenOf(form)).toBeNull();
    form.set("form_token", newFormToken());
    expect(formTokenOf(form)).toMatch(/^[\w-]{22}$/);
  });
});
