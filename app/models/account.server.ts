import type { Role } from "../../db/schema";
import { consumeToken, issueToken } from "~/models/auth-token.server";
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

/** Sends a new verification link if the account exists and is unverified; says nothing either way. */
export async function resendVerification(database: DB, email: string): Promise<void> {
  const user = await getUserWithPasswordByEmail(database, email);
  if (!user || user.email_verified_at) return;
  await writeTransaction(database, async (tx) => {
    const token = await issueToken(tx, user.id, "verify_email");
    await enqueueMail(tx, verificationMail(user.email, user.first_name, token));
  });
  deliverSoon();
}

export async function verifyEmail(database: DB, token: string): Promise<boolean> {
  return writeTransaction(database, async (tx) => {
    const userId = await consumeToken(tx, token, "verify_email");
    if (userId === null) return false;
    await markEmailVerified(tx, userId);
    return true;
  });
}

/** Queues a reset link when the account exists; the caller shows the same message either way. */
export async function requestPasswordReset(database: DB, email: string): Promise<void> {
  const user = await getUserWithPasswordByEmail(database, email);
  if (!user) return;
  await writeTransaction(database, async (tx) => {
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

/** Sets a new password from a reset link; every session of the user ends. Also verifies the e-mail. */
export async function resetPassword(
  database: DB,
  token: string,
  password: string,
): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  const userId = await writeTransaction(database, async (tx) => {
    const id = await consumeToken(tx, token, "reset_password");
    if (id === null) return null;
    await setPasswordHash(tx, id, passwordHash);
    await markEmailVerified(tx, id);
    return id;
  });
  if (userId === null) return false;
  await endAllSessionsOfUser(database, userId);
  await clearLoginFailures(database, userId);
  return true;
}
