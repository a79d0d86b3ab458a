import type { Role, TokenPurpose } from "../../db/schema";
import {
  consumeToken,
  findTokenUser,
  issueToken,
  mayRequestLink,
  revokeTokens,
  issuedToken,
} from "~/models/auth-token.server";
import {
  createUser,
  emailExists,
  getUserWithPasswordByEmail,
  markEmailVerified,
  setPasswordHash,
} from "~/models/user.server";
import { hashPassword } from "~/services/crypto.server";
import { writeTransaction, type DB } from "~/services/db.server";
import { absoluteUrl, deliverSoon, enqueueMail } from "~/services/mailer.server";
import { endAllSessionsOfUser } from "~/services/session.server";
import { paths } from "~/utils/paths";

async function clearLoginFailures(database: DB, userId: number): Promise<void> {
  const user = await database
    .selectFrom("users")
    .select("email")
    .where("id", "=", userId)
    .executeTakeFirst();
  if (user) await database.deleteFrom("login_failures").where("email", "=", user.email).execute();
}

export interface SignUpInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  companyName: string | null;
  phone: string | null;
  role: Extract<Role, "buyer" | "partner">;
}

export type SignUpResult = { ok: true; userId: number } | { ok: false; reason: "exists" };

/** Creates an unverified account and queues its verification e-mail, in one transaction. */
export async function signUp(database: DB, input: SignUpInput): Promise<SignUpResult> {
  if (await emailExists(database, input.email)) return { ok: false, reason: "exists" };
  const passwordHash = await hashPassword(input.password);
  try {
    const userId = await writeTransaction(database, async (tx) => {
      const user = await createUser(tx, { ...input, passwordHash, verified: false });
      const token = await issueToken(tx, user.id, "verify_email");
      await enqueueMail(tx, verificationMail(input.email, input.firstName, token));
      return user.id;
    });
    deliverSoon();
    return { ok: true, userId };
  } catch (error) {
    // Two sign-ups racing for one e-mail: the UNIQUE index decides.
    if (error instanceof Error && /UNIQUE constraint failed: users\.email/.test(error.message)) {
      return { ok: false, reason: "exists" };
    }
    throw error;
  }
}

function verificationMail(to: string, firstName: string, token: string) {
  return {
    to,
    subject: "Verifica tu correo en CotizaHub",
    paragraphs: [
      `Hola ${firstName}:`,
      "Gracias por registrarte en CotizaHub. Para activar tu cuenta, confirma tu correo con el siguiente enlace. El enlace vence en 48 horas.",
      "Si no creaste esta cuenta, ignora este mensaje.",
    ],
    action: {
      label: "Verificar mi correo",
      url: absoluteUrl(paths.verifyEmail(token)),
    },
  };
}

/**
 * Sends a new verification link if the account exists, is unverified and active; says nothing
 * either way.
 */
export async function resendVerification(database: DB, email: string): Promise<void> {
  const user = await getUserWithPasswordByEmail(database, email);
  if (!user || user.email_verified_at || user.deactivated_at) return;
  await writeTransaction(database, async (tx) => {
    if (!(await mayRequestLink(tx, user.id, "verify_email"))) return;
    const token = await issueToken(tx, user.id, "verify_email");
    await enqueueMail(tx, verificationMail(user.email, user.first_name, token));
  });
  deliverSoon();
}

/**
 * What opening a verification link did: `verified` the account; found it `already-verified` (the
 * link opened again, e.g. from the e-mail after signing in); or `invalid` (unknown, expired before
 * use, replaced by a newer link, or its account deactivated: nothing more is told about those).
 */
export type VerifyEmailOutcome = "verified" | "already-verified" | "invalid";

export async function verifyEmail(database: DB, token: string): Promise<VerifyEmailOutcome> {
  return writeTransaction(database, async (tx) => {
    const userId = await consumeToken(tx, token, "verify_email");
    if (userId !== null) {
      await markEmailVerified(tx, userId);
      return "verified";
    }
    // Only the holder of a link that was really sent learns this, and only about its own account.
    const issued = await issuedToken(tx, token);
    if (issued?.purpose !== "verify_email") return "invalid";
    const owner = issued.userId;
    const account = await tx
      .selectFrom("users")
      .select(["email_verified_at", "deactivated_at"])
      .where("id", "=", owner)
      .executeTakeFirst();
    return account?.email_verified_at && !account.deactivated_at ? "already-verified" : "invalid";
  });
}

/**
 * Queues a reset link when the account exists and is active (a deactivated account gets no mail);
 * the caller shows the same message either way.
 */
export async function requestPasswordReset(database: DB, email: string): Promise<void> {
  const user = await getUserWithPasswordByEmail(database, email);
  if (!user || user.deactivated_at) return;
  await writeTransaction(database, async (tx) => {
    if (!(await mayRequestLink(tx, user.id, "reset_password"))) return;
    const token = await issueToken(tx, user.id, "reset_password");
    await enqueueMail(tx, {
      to: user.email,
      subject: "Restablece tu contraseña de CotizaHub",
      paragraphs: [
        `Hola ${user.first_name}:`,
        "Recibimos una solicitud para restablecer tu contraseña. Usa el siguiente enlace; vence en 1 hora.",
        "Si no la solicitaste, ignora este mensaje: tu contraseña no cambia.",
      ],
      action: {
        label: "Restablecer contraseña",
        url: absoluteUrl(paths.resetPassword(token)),
      },
    });
  });
  deliverSoon();
}

/** The links that set a password: "¿Olvidaste tu contraseña?" and an invitation's «Activa tu cuenta». */
export type PasswordLinkPurpose = Extract<TokenPurpose, "reset_password" | "invitation">;

export function isPasswordLink(purpose: TokenPurpose | null): purpose is PasswordLinkPurpose {
  return purpose === "reset_password" || purpose === "invitation";
}

/**
 * Sets the password from a reset or an invitation link. Either proves the e-mail (it is marked
 * verified); every other link of the user stops working and every session of the user ends. A
 * deactivated account is refused like a used link: a password reset never reactivates it.
 * Returns whose password it was and which link set it, or null.
 */
export async function setPasswordFromLink(
  database: DB,
  token: string,
  password: string,
): Promise<{ userId: number; purpose: PasswordLinkPurpose } | null> {
  const passwordHash = await hashPassword(password);
  const done = await writeTransaction(database, async (tx) => {
    const purpose = (await issuedToken(tx, token))?.purpose ?? null;
    if (!isPasswordLink(purpose)) return null;
    const owner = await findTokenUser(tx, token, purpose);
    if (owner === null) return null;
    const user = await tx
      .selectFrom("users")
      .select("deactivated_at")
      .where("id", "=", owner)
      .executeTakeFirst();
    if (!user || user.deactivated_at !== null) return null;
    if ((await consumeToken(tx, token, purpose)) === null) return null;
    await setPasswordHash(tx, owner, passwordHash);
    await markEmailVerified(tx, owner);
    await revokeTokens(tx, owner);
    await endAllSessionsOfUser(tx, owner);
    return { userId: owner, purpose };
  });
  if (done) await clearLoginFailures(database, done.userId);
  return done;
}
