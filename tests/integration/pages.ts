/**
 * Reading a keyset-paginated list the way a person pages it: every page forwards, then back, and
 * the orders the lists promise, for tests that check no row is skipped or repeated.
 */
import { expect } from "vitest";
import { decodeCursor, type PageInfo, type PageRequest } from "~/utils/keyset";

export const first: PageRequest = { kind: "numbered", page: 1 };

export type Page<R> = { rows: R[]; pageInfo: PageInfo };

/**
 * Every page of a list, following its `after` links to the end and then its `before` links back
 * to the start: the ids met each way, which must be the same list.
 */
export async function walk<R extends { id: number }>(
  read: (page: PageRequest) => Promise<Page<R>>,
) {
  const pages = [await read(first)];
  while (pages.at(-1)!.pageInfo.next)
    pages.push(await read({ kind: "after", cursor: decodeCursor(pages.at(-1)!.pageInfo.next)! }));
  const forward = pages.flatMap((p) => p.rows.map((r) => r.id));
  let back = pages.at(-1)!;
  const backward = back.rows.map((r) => r.id);
  while (back.pageInfo.prev) {
    back = await read({ kind: "before", cursor: decodeCursor(back.pageInfo.prev)! });
    backward.unshift(...back.rows.map((r) => r.id));
  }
  return { forward, backward, pages: pages.length };
}

export async function expectPages<R extends { id: number }>(
  read: (page: PageRequest) => Promise<Page<R>>,
  expected: number[],
) {
  const { forward, backward, pages } = await walk(read);
  expect(forward).toEqual(expected);
  expect(backward).toEqual(expected);
  return pages;
}

export const byDesc =
  <T>(...keys: ((row: T) => string | number)[]) =>
  (a: T, b: T) => {
    for (const key of keys) {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return x < y ? 1 : -1;
    }
    return 0;
  };
export const reversed =
  <T>(compare: (a: T, b: T) => number) =>
  (a: T, b: T) =>
    compare(b, a);

/** A payment as the Pagos lists order it. */
interface QueuedPayment {
  id: number;
  created: string;
  submitted: string | null;
  status: string;
}

/** When a payment's proof was sent, or it was opened when none was. */
export const sentAt = (p: QueuedPayment) => p.submitted ?? p.created;

/**
 * The Pagos review queue: pending first (a proof sent before none, oldest first), then the
 * reviewed ones, newest sent first.
 */
export function inQueueOrder<P extends QueuedPayment>(rows: P[]): P[] {
  return [
    ...rows
      .filter((p) => p.status === "pending")
      .sort(
        reversed(
          byDesc<P>(
            (p) => (p.submitted === null ? 1 : 0),
            sentAt,
            (p) => p.id,
          ),
        ),
      ),
    ...rows.filter((p) => p.status !== "pending").sort(byDesc<P>(sentAt, (p) => p.id)),
  ];
}
