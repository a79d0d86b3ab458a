import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { Role } from "../../db/schema";
import { homeFor, isRole } from "~/domain/roles";
import { emailField } from "~/domain/validation";
import {
  getUserById,
  getUserWithPasswordByEmail,
  NO_PASSWORD_HASH,
  type PublicUser,
} from "~/models/user.server";
import { generateToken, hashPassword, verifyPassword } from "~/services/crypto.server";
import { db, now, type DB } from "~/services/db.server";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "~/services/client-address.server";
import { absoluteUrl, deliverSoon, enqueueMail } from "~/services/mailer.server";
import { hasSessionCookie, loadSession } from "~/services/session.server";
import { getSettings } from "~/services/settings.server";
import { paths } from "~/utils/paths";

export const LOCKOUT_MINUTES = 15;

export type SignInResult =
  | { ok: true; user: PublicUser }
  | { ok: false; reason: "invalid" | "locked" | "unverified" | "deactivated"; email: string };

async function recentFailures(database: DB, email: string, clientAddress: string): Promise<number> {
  const since = new Date(Date.now() - LOCKOUT_MINUTES * 60_000).toISOString();
  const row = await database
    .selectFrom("login_failures")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("email", "=", email)
    .where("client_address", "=", clientAddress)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * A real bcrypt hash at the cost of stored passwords, of a secret nobody knows: an unknown e-mail
 * spends the same time as a wrong password, so timing does not tell which e-mails have accounts.
 */
let dummyHash: Promise<string> | undefined;
function hashForUnknownEmail(): Promise<string> {
  return (dummyHash ??= hashPassword(generateToken()));
}

/** Tells the owner, once per lockout window, that someone is failing to sign in as them. */
async function warnOwner(
  database: DB,
  user: { id: number; email: string; first_name: string },
  clientAddress: string,
): Promise<void> {
  const windowStart = new Date(Date.now() - LOCKOUT_MINUTES * 60_000).toISOString();
  const claimed = await database
    .updateTable("users")
    .set({ lockout_alerted_at: now() })
    .where("id", "=", user.id)
    .where((eb) =>
      eb.or([eb("lockout_alerted_at", "is", null), eb("lockout_alerted_at", "<", windowStart)]),
    )
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return;
  await enqueueMail(database, {
    to: user.email,
    subject: "Intentos fallidos de inicio de sesión en tu cuenta",
    paragraphs: [
      `Hola ${user.first_name}:`,
      `Alguien ha intentado iniciar sesión en tu cuenta de CotizaHub con una contraseña incorrecta varias veces desde la dirección ${clientAddress}. Hemos bloqueado esa dirección durante ${LOCKOUT_MINUTES} minutos.`,
      "Tú puedes seguir entrando con normalidad desde tu equipo habitual. Si no reconoces estos intentos, cambia tu contraseña: al restablecerla también se levanta cualquier bloqueo.",
    ],
    action: { label: "Restablecer mi contraseña", url: absoluteUrl(paths.forgotPassword()) },
  });
  deliverSoon();
}

/**
 * Checks an e-mail and password. After `maxLoginAttempts` failures for an e-mail from one client
 * address within LOCKOUT_MINUTES, that address is refused for that e-mail (even with the right
 * password) until the window passes; other addresses, the owner's included, are not affected.
 * Counters live in SQLite so every server instance sees them.
 */
export async function verifySignIn(
  database: DB,
  rawEmail: unknown,
  password: unknown,
  clientAddress: string,
): Promise<SignInResult> {
  const parsedEmail = emailField.safeParse(rawEmail);
  const email = parsedEmail.success
    ? parsedEmail.data
    : String(rawEmail ?? "")
        .trim()
        .toLowerCase();
  const { maxLoginAttempts } = await getSettings(database);
  const failures = await recentFailures(database, email, clientAddress);
  if (failures >= maxLoginAttempts) return { ok: false, reason: "locked", email };
  const user = parsedEmail.success ? await getUserWithPasswordByEmail(database, email) : undefined;
  // An invited account without a password yet is checked like an unknown e-mail (same time, same
  // answer): nothing tells that it exists.
  const stored = user && user.password_hash !== NO_PASSWORD_HASH ? user.password_hash : null;
  const matches = await verifyPassword(
    typeof password === "string" ? password : "",
    stored ?? (await hashForUnknownEmail()),
  );
  const valid = matches && stored !== null;
  if (!user || !valid) {
    await database
      .insertInto("login_failures")
      .values({ email, client_address: clientAddress })
      .execute();
    if (user && !user.deactivated_at && failures + 1 >= maxLoginAttempts)
      await warnOwner(database, user, clientAddress);
    return { ok: false, reason: "invalid", email };
  }
  // Like "unverified", told only to whoever typed the right password: to anyone else a deactivated
  // account answers as every wrong password does.
  if (user.deactivated_at) return { ok: false, reason: "deactivated", email };
  if (!user.email_verified_at) return { ok: false, reason: "unverified", email };
  await database
    .deleteFrom("login_failures")
    .where("email", "=", email)
    .where("client_address", "=", clientAddress)
    .execute();
  return { ok: true, user: (await getUserById(database, user.id))! };
}

const authenticator = new Authenticator<SignInResult>();
authenticator.use(
  new FormStrategy(async ({ form, request }) =>
    verifySignIn(db, form.get("email"), form.get("password"), clientAddress(request)),
  ),
  "form",
);

/**
 * Signs in through remix-auth's form strategy with a form the one reader already parsed (and
 * capped): the strategy gets a bounded copy of it, never the raw body.
 */
export function authenticateForm(request: Request, form: FormData): Promise<SignInResult> {
  const copy = new Request(request.url, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      [CLIENT_ADDRESS_HEADER]: clientAddress(request),
    },
    body: new URLSearchParams(
      [...form].filter((e): e is [string, string] => typeof e[1] === "string"),
    ),
  });
  return authenticator.authenticate("form", copy);
}

// ---- Guards: every loader and action starts with one of these.

const userCache = new WeakMap<Request, Promise<PublicUser | null>>();

export function getOptionalUser(request: Request): Promise<PublicUser | null> {
  let cached = userCache.get(request);
  if (!cached) {
    cached = loadSession(db, request).then((session) =>
      session ? getUserById(db, session.userId).then((u) => u ?? null) : null,
    );
    userCache.set(request, cached);
  }
  return cached;
}

export async function requireUser(request: Request): Promise<PublicUser> {
  const user = await getOptionalUser(request);
  if (!user) {
    const url = new URL(request.url);
    // A cookie without a live session: it timed out (sign-out clears the cookie), so say so.
    const expired = await hasSessionCookie(request);
    throw redirect(paths.signIn(url.pathname + url.search, { expired }));
  }
  return user;
}

/** SPEC §2: wrong role → the user's own home; no session → /auth. */
export async function requireRole(request: Request, role: Role): Promise<PublicUser> {
  const user = await requireUser(request);
  const effective = isRole(user.role) ? user.role : "buyer";
  if (effective !== role) throw redirect(homeFor(user));
  return user;
}

/** For /auth and /: a signed-in user is sent to their home. */
export async function redirectIfSignedIn(request: Request): Promise<void> {
  const user = await getOptionalUser(request);
  if (user) throw redirect(homeFor(user));
}
