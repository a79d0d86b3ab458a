import { sql } from "kysely";
import { periodStarts } from "~/domain/analytics";
import type { DB } from "~/services/db.server";
import { containsPattern } from "~/utils/like";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import { inBatches, pageStartsWithin } from "./keyset.server";

/** The contacts list's search: name, e-mail, company and message. */
function searchedContacts(database: DB, q: string) {
  const query = database.selectFrom("contact_submissions");
  if (!q) return query;
  const pattern = containsPattern(q);
  return query.where(
    sql<boolean>`(name LIKE ${pattern} ESCAPE '\\' OR email LIKE ${pattern} ESCAPE '\\'
      OR coalesce(company, '') LIKE ${pattern} ESCAPE '\\' OR message LIKE ${pattern} ESCAPE '\\')`,
  );
}

const contactColumns = [
  "id",
  "name",
  "email",
  "phone",
  "company",
  "message",
  "created_at",
] as const;

/** Contact form messages for /admin/contacts: search over name, e-mail, company and message. */
export async function listContactSubmissions(
  database: DB,
  { q, page }: { q: string; page: number },
) {
  const query = searchedContacts(database, q);
  const total = Number(
    (await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n,
  );
  const submissions = pageStartsWithin(page, ADMIN_PAGE_SIZE, total)
    ? await query
        .select(contactColumns)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(ADMIN_PAGE_SIZE)
        .offset((page - 1) * ADMIN_PAGE_SIZE)
        .execute()
    : [];
  return { submissions, total };
}

/** Every message the contacts list shows with this search, for the CSV export, newest first, in batches. */
export async function* exportContactSubmissions(database: DB, { q }: { q: string }) {
  yield* inBatches(searchedContacts(database, q).select(contactColumns), "id");
}

/** Totals for the counters: all time, since the start of today and of this week (UTC, Monday). */
export async function contactCounters(database: DB, current = new Date()) {
  const { today, week } = periodStarts(current);
  const row = await database
    .selectFrom("contact_submissions")
    .select([
      (eb) => eb.fn.countAll<number>().as("total"),
      sql<number>`coalesce(sum(created_at >= ${today}), 0)`.as("today"),
      sql<number>`coalesce(sum(created_at >= ${week}), 0)`.as("week"),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), today: Number(row.today), week: Number(row.week) };
}
