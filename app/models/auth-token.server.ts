import type { TokenPurpose } from "../../db/schema";
import { generateToken, hashToken } from "~/services/crypto.server";
import { now, type DB, type Tx } from "~/services/db.server";

const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  verify_email: 48 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
  invitation: 7 * 24 * 60 * 60 * 1000,
};

/**
 * Links of one purpose the user may be sent per hour by asking for them («¿Olvidaste tu
 * contraseña?», «Reenviar verificación»): anyone may type another person's e-mail, and each ask
 * would be one more e-mail in their inbox. Past it the ask is answered the same, and sends nothing.
 */
export const REQUESTED_LINKS_PER_HOUR = 5;

export async function mayRequestLink(tx: Tx | DB, userId: number, purpose: TokenPurpose) {
  const since = new Date(Date.now() - 60 * 60_000).toISOString();
  const row = await tx
    .selectFrom("auth_tokens")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.count) < REQUESTED_LINKS_PER_HOUR;
}

/** Issues a single-use token; only its hash is stored. Earlier unused tokens of the same purpose die. */
export async function issueToken(
  tx: Tx | DB,
  userId: number,
  purpose: TokenPurpose,
): Promise<string> {
  const token = generateToken();
  await tx
    .updateTable("auth_tokens")
    .set({ used_at: now() })
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();
  await tx
    .insertInto("auth_tokens")
    .values({
      user_id: userId,
      purpose,
      token_hash: hashToken(token),
      expires_at: new Date(Date.now() + TOKEN_LIFETIME_MS[purpose]).toISOString(),
    })
    .execute();
  return token;
}

/** The user a live (unused, unexpired) token belongs to, without using it up. */
export async function findTokenUser(
  database: DB | Tx,
  token: string,
  purpose: TokenPurpose,
): Promise<number | null> {
  if (!token) return null;
  const row = await database
    .selectFrom("auth_tokens")
    .select(["user_id"])
    .where("token_hash", "=", hashToken(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", now())
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/**
 * What a token was issued for and to whom, live or not (used, expired or replaced): the page a
 * link opens words itself after it, also to say that the link expired or was already used; null
 * for a token that was never issued.
 */
export async function issuedToken(
  database: DB | Tx,
  token: string,
): Promise<{ purpose: TokenPurpose; userId: number } | null> {
  if (!token) return null;
  const row = await database
    .selectFrom("auth_tokens")
    .select(["purpose", "user_id"])
    .where("token_hash", "=", hashToken(token))
    .executeTakeFirst();
  return row ? { purpose: row.purpose, userId: row.user_id } : null;
}

/** Ends every unused token of a user (a link in an old e-mail stops working). */
export async function revokeTokens(tx: Tx | DB, userId: number): Promise<void> {
  await tx
    .updateTable("auth_tokens")
    .set({ used_at: now() })
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
}

/** Uses a token up; returns its user, or null when it was invalid, expired or already used. */
export async function consumeToken(
  tx: Tx | DB,
  token: string,
  purpose: TokenPurpose,
): Promise<number | null> {
  const userId = await findTokenUser(tx, token, purpose);
  if (userId === null) return null;
  const result = await tx
    .updateTable("auth_tokens")
    .set({ used_at: now() })
    .where("token_hash", "=", hashToken(token))
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? userId : null;
}
