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
import {
  hasSessionCookie,
  loadSession,
  readKnownDevices,
  type KnownDevice,
} from "~/services/session.server";
import { getSettings } from "~/services/settings.server";
import { paths } from "~/utils/paths";

export const LOCKOUT_MINUTES = 15;

export type SignInResult =
  | { ok: true; user: PublicUser }
  | { ok: false; reason: "invalid" | "locked" | "unverified" | "deactivated"; email: string };

/**
 * Unknown devices may fail this many times the per-address limit on one account, across all
 * addresses, before every unknown device is refused for it (ADR 0018): enough for an owner on a
 * new computer and a phone; a botnet with an address per guess gets no more.
 */
export const UNKNOWN_DEVICES_FACTOR = 2;

type Lock = "address" | "account" | "device" | null;

function failuresSince(database: DB, email: string) {
  const since = new Date(Date.now() - LOCKOUT_MINUTES * 60_000).toISOString();
  return database
    .selectFrom("login_failures")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("email", "=", email)
    .where("created_at", ">", since);
}

/**
 * Whether this attempt is refused before its password is checked. A known device (its cookie names
 * this account) is limited by its own failures; an unknown one by its address's failures on the
 * account and by all unknown devices' failures on it. Unknown e-mails are counted the same way, so
 * a lockout does not tell which e-mails have accounts.
 */
async function lockFor(
  database: DB,
  email: string,
  clientAddress: string,
  device: string | null,
  max: number,
): Promise<Lock> {
  const count = async (query: ReturnType<typeof failuresSince>) =>
    Number((await query.executeTakeFirstOrThrow()).count);
  if (device)
    return (await count(failuresSince(database, email).where("device", "=", device))) >= max
      ? "device"
      : null;
  const unknown = failuresSince(database, email).where("device", "is", null);
  if ((await count(unknown.where("client_address", "=", clientAddress))) >= max) return "address";
  if ((await count(unknown)) >= max * UNKNOWN_DEVICES_FACTOR) return "account";
  return null;
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
  lock: Exclude<Lock, null>,
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
      lock === "address"
        ? `Alguien ha intentado iniciar sesión en tu cuenta de CotizaHub con una contraseña incorrecta varias veces desde la dirección ${clientAddress}. Hemos bloqueado esa dirección durante ${LOCKOUT_MINUTES} minutos.`
        : lock === "account"
          ? `Alguien ha intentado iniciar sesión en tu cuenta de CotizaHub con contraseñas incorrectas muchas veces desde distintas direcciones (la última, ${clientAddress}). Durante ${LOCKOUT_MINUTES} minutos solo se podrá entrar desde los navegadores donde ya iniciaste sesión antes.`
          : `Alguien ha intentado iniciar sesión en tu cuenta de CotizaHub con una contraseña incorrecta varias veces desde un navegador donde ya habías entrado (dirección ${clientAddress}). Hemos bloqueado ese navegador durante ${LOCKOUT_MINUTES} minutos.`,
      "Tú puedes seguir entrando con normalidad desde tu equipo habitual. Si no reconoces estos intentos, cambia tu contraseña: al restablecerla también se levanta cualquier bloqueo.",
    ],
    action: { label: "Restablecer mi contraseña", url: absoluteUrl(paths.forgotPassword()) },
  });
  deliverSoon();
}

/**
 * Checks an e-mail and password (ADR 0018). Within LOCKOUT_MINUTES, an unknown device is refused
 * for an e-mail (even with the right password) after `maxLoginAttempts` failures from its address,
 * or after UNKNOWN_DEVICES_FACTOR times that from unknown devices at any address; a browser where
 * the account signed in before is refused only after `maxLoginAttempts` failures of its own, so the
 * owner keeps signing in during an attack. Counters live in SQLite so every server process sees them.
 */
export async function verifySignIn(
  database: DB,
  rawEmail: unknown,
  password: unknown,
  clientAddress: string,
  knownDevices: KnownDevice[] = [],
): Promise<SignInResult> {
  const parsedEmail = emailField.safeParse(rawEmail);
  const email = parsedEmail.success
    ? parsedEmail.data
    : String(rawEmail ?? "")
        .trim()
        .toLowerCase();
  const { maxLoginAttempts } = await getSettings(database);
  const user = parsedEmail.success ? await getUserWithPasswordByEmail(database, email) : undefined;
  const device = (user && knownDevices.find((d) => d.userId === user.id)?.nonce) ?? null;
  if (await lockFor(database, email, clientAddress, device, maxLoginAttempts))
    return { ok: false, reason: "locked", email };
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
      .values({ email, client_address: clientAddress, device })
      .execute();
    const lock = await lockFor(database, email, clientAddress, device, maxLoginAttempts);
    if (user && !user.deactivated_at && lock) await warnOwner(database, user, clientAddress, lock);
    return { ok: false, reason: "invalid", email };
  }
  // Like "unverified", told only to whoever typed the right password: to anyone else a deactivated
  // account answers as every wrong password does.
  if (user.deactivated_at) return { ok: false, reason: "deactivated", email };
  if (!user.email_verified_at) return { ok: false, reason: "unverified", email };
  // This browser's own failures are forgotten; unknown devices' stay counted while an attack lasts.
  await database
    .deleteFrom("login_failures")
    .where("email", "=", email)
    .where((eb) =>
      device
        ? eb("device", "=", device)
        : eb.and([eb("device", "is", null), eb("client_address", "=", clientAddress)]),
    )
    .execute();
  return { ok: true, user: (await getUserById(database, user.id))! };
}

const authenticator = new Authenticator<SignInResult>();
authenticator.use(
  new FormStrategy(async ({ form, request }) =>
    verifySignIn(
      db,
      form.get("email"),
      form.get("password"),
      clientAddress(request),
      await readKnownDevices(request),
    ),
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
      // The device cookie (ADR 0018), and nothing else of the original request.
      Cookie: request.headers.get("Cookie") ?? "",
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
