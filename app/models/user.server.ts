import { sql } from "kysely";
import type { Role, User } from "../../db/schema";
import { now, writeTransaction, type DB } from "~/services/db.server";
import { fail, ok, type Result } from "~/domain/result";
import { hashPassword, verifyPassword } from "~/services/crypto.server";
import { absoluteUrl, deliverSoon, enqueueMail } from "~/services/mailer.server";
import { endOtherSessionsOfUser } from "~/services/session.server";
import { formatDateTime } from "~/utils/format";
import { paths } from "~/utils/paths";

export type PublicUser = Pick<
  User,
  | "id"
  | "email"
  | "first_name"
  | "last_name"
  | "company_name"
  | "phone"
  | "role"
  | "is_featured_partner"
  | "email_verified_at"
  | "created_at"
>;

const PUBLIC_USER_COLUMNS = [
  "id",
  "email",
  "first_name",
  "last_name",
  "company_name",
  "phone",
  "role",
  "is_featured_partner",
  "email_verified_at",
  "created_at",
] as const;

/**
 * The stored hash of an account whose owner has not chosen a password yet (an invited user): not a
 * bcrypt hash, so no password matches it (sign-in compares against a dummy hash instead, so it
 * takes as long as any other refusal). Migration 2026-11-26T07-00 indexes users by it.
 */
export const NO_PASSWORD_HASH = "!no-password";

// Literal, not bound: a bound value would keep SQLite from using the partial indexes.
/** An invited account whose owner has not chosen a password yet («Invitación pendiente»). */
export const INVITATION_PENDING = sql<boolean>`password_hash = ${sql.lit(NO_PASSWORD_HASH)}`;
/** An account whose owner has chosen a password: activated. */
export const INVITATION_ANSWERED = sql<boolean>`password_hash != ${sql.lit(NO_PASSWORD_HASH)}`;

export function getUserById(database: DB, id: number): Promise<PublicUser | undefined> {
  return database
    .selectFrom("users")
    .select(PUBLIC_USER_COLUMNS)
    .where("id", "=", id)
    .executeTakeFirst();
}

export function getUserWithPasswordByEmail(database: DB, email: string): Promise<User | undefined> {
  return database
    .selectFrom("users")
    .selectAll()
    .where("email", "=", email.toLowerCase())
    .executeTakeFirst();
}

export async function emailExists(database: DB, email: string): Promise<boolean> {
  const row = await database
    .selectFrom("users")
    .select("id")
    .where("email", "=", email.toLowerCase())
    .executeTakeFirst();
  return Boolean(row);
}

interface NewUserInput {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  companyName?: string | null;
  phone?: string | null;
  role: Role;
  verified?: boolean;
}

export async function createUser(database: DB, input: NewUserInput): Promise<PublicUser> {
  const timestamp = now();
  const { id } = await database
    .insertInto("users")
    .values({
      email: input.email.toLowerCase(),
      password_hash: input.passwordHash,
      first_name: input.firstName,
      last_name: input.lastName,
      company_name: input.companyName ?? null,
      phone: input.phone ?? null,
      role: input.role,
      email_verified_at: input.verified ? timestamp : null,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return (await getUserById(database, id))!;
}

export async function markEmailVerified(database: DB, userId: number): Promise<void> {
  await database
    .updateTable("users")
    .set({ email_verified_at: now(), updated_at: now() })
    .where("id", "=", userId)
    .where("email_verified_at", "is", null)
    .execute();
}

interface ProfileInput {
  firstName: string;
  lastName: string;
  companyName: string | null;
  phone: string | null;
}

export async function updateProfile(
  database: DB,
  userId: number,
  input: ProfileInput,
): Promise<void> {
  await database
    .updateTable("users")
    .set({
      first_name: input.firstName,
      last_name: input.lastName,
      company_name: input.companyName,
      phone: input.phone,
      updated_at: now(),
    })
    .where("id", "=", userId)
    .execute();
}

export async function setPasswordHash(
  database: DB,
  userId: number,
  passwordHash: string,
): Promise<void> {
  await database
    .updateTable("users")
    .set({ password_hash: passwordHash, updated_at: now() })
    .where("id", "=", userId)
    .execute();
}

export function displayName(user: Pick<User, "first_name" | "last_name">): string {
  return `${user.first_name} ${user.last_name}`.trim();
}

/** How the desk names a partner: their company, else their name. */
export function partnerName(
  partner: Pick<User, "first_name" | "last_name" | "company_name">,
): string {
  return partner.company_name || displayName(partner);
}

/** How an operator's notice names a buyer: their company, else their name (e.g. «Petrolera Demo S.A.»). */
export async function buyerLabel(database: DB, buyerId: number): Promise<string> {
  const buyer = await database
    .selectFrom("users")
    .select(["first_name", "last_name", "company_name"])
    .where("id", "=", buyerId)
    .executeTakeFirstOrThrow();
  return partnerName(buyer);
}

/**
 * Checks the current password, then stores the new one; in the same transaction every other session
 * of the user ends (a device signed in by someone who learnt the old password is signed out; the
 * session that made the change, `keepSessionId`, stays) and the owner is e-mailed about it.
 */
export async function changePassword(
  database: DB,
  user: { id: number; email: string },
  input: { current_password: string; new_password: string },
  keepSessionId: string | null,
): Promise<Result> {
  const wrongPassword = fail("invalid", "La contraseña actual no es correcta.", "current_password");
  const account = await getUserWithPasswordByEmail(database, user.email);
  if (!account || !(await verifyPassword(input.current_password, account.password_hash))) {
    return wrongPassword;
  }
  const passwordHash = await hashPassword(input.new_password);
  const changed = await writeTransaction(database, async (tx) => {
    // Only over the hash that was checked: a change or reset that landed meanwhile wins.
    const updated = await tx
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: now() })
      .where("id", "=", user.id)
      .where("password_hash", "=", account.password_hash)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    await endOtherSessionsOfUser(tx, user.id, keepSessionId);
    await enqueueMail(tx, passwordChangedMail(account));
    return true;
  });
  if (!changed) return wrongPassword;
  deliverSoon();
  return ok();
}

function passwordChangedMail(user: Pick<User, "email" | "first_name">) {
  return {
    to: user.email,
    subject: "Tu contraseña de CotizaHub cambió",
    paragraphs: [
      `Hola ${user.first_name}:`,
      `La contraseña de tu cuenta de CotizaHub se cambió el ${formatDateTime(new Date())} desde tu perfil. Por seguridad, cerramos tu sesión en los demás dispositivos.`,
      `Si no fuiste tú, restablece tu contraseña ahora con «¿Olvidaste tu contraseña?» en la página de inicio de sesión (así se cierran todas las sesiones) y escríbenos desde ${absoluteUrl(paths.contact())}.`,
    ],
    action: {
      label: "Restablecer mi contraseña",
      url: absoluteUrl(paths.forgotPassword()),
    },
  };
}
