import crypto from "node:crypto";
import type { DB, Tx } from "./db.server";

/**
 * One-time form tokens: a create form carries a random token (rendered by the loader, no write), and
 * the action records it in the same transaction that creates the row. A second submit of the same
 * form (a double click, a resend after a slow answer) finds the token used and is sent where the
 * first one led, so one row is stored.
 */

export const FORM_TOKEN_FIELD = "form_token";

export function newFormToken(): string {
  return crypto.randomBytes(16).toString("base64url");
}

/** A token as sent by the form, or null for clients that send none (they get no deduplication). */
export function formTokenOf(form: FormData): string | null {
  const value = form.get(FORM_TOKEN_FIELD);
  return typeof value === "string" && /^[\w-]{16,64}$/.test(value) ? value : null;
}

/** Where the first submit with this token led, if it was already used. */
export async function usedFormToken(database: DB, token: string | null): Promise<string | null> {
  if (!token) return null;
  const row = await database
    .selectFrom("form_tokens")
    .select("result_path")
    .where("token", "=", token)
    .executeTakeFirst();
  return row?.result_path ?? null;
}

export class FormTokenAlreadyUsed extends Error {
  constructor(readonly token: string) {
    super("Este formulario ya se envió.");
  }
}

/**
 * Records the token inside the creating transaction; throws FormTokenAlreadyUsed (rolling the
 * transaction back) when a concurrent submit used it first.
 */
export async function claimFormToken(
  tx: Tx,
  token: string | null,
  resultPath: string,
): Promise<void> {
  if (!token) return;
  const inserted = await tx
    .insertInto("form_tokens")
    .values({ token, result_path: resultPath })
    .onConflict((oc) => oc.column("token").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new FormTokenAlreadyUsed(token);
}

/** Tokens only matter for minutes; the start-up sweep removes old ones. */
export async function purgeOldFormTokens(database: DB, olderThanDays = 2): Promise<void> {
  const before = new Date(Date.now() - olderThanDays * 86_400_000).toISOString();
  await database.deleteFrom("form_tokens").where("used_at", "<", before).execute();
}
