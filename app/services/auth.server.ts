import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { Role } from "../../db/schema";
import { homeFor, isRole } from "~/domain/roles";
import { emailField } from "~/domain/validation";
import { getUserById, getUserWithPasswordByEmail, type PublicUser } from "~/models/user.server";
import { verifyPassword } from "./crypto.server";
import { db, type DB } from "./db.server";
import { loadSession } from "./session.server";
import { getSettings } from "./settings.server";

export const LOCKOUT_MINUTES = 15;

export type SignInResult =
  | { ok: true; user: PublicUser }
  | { ok: false; reason: "invalid" | "locked" | "unverified"; email: string };

async function recentFailures(database: DB, email: string): Promise<number> {
  const since = new Date(Date.now() - LOCKOUT_MINUTES * 60_000).toISOString();
  const row = await database
    .selectFrom("login_failures")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("email", "=", email)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Checks an e-mail and password. After `maxLoginAttempts` failures for an e-mail within
 * LOCKOUT_MINUTES, the e-mail is refused (even with the right password) until the window passes.
 * Counters live in SQLite so every server instance sees them.
 */
export async function verifySignIn(
  database: DB,
  rawEmail: unknown,
  password: unknown,
): Promise<SignInResult> {
  const parsedEmail = emailField.safeParse(rawEmail);
  const email = parsedEmail.success
    ? parsedEmail.data
    : String(rawEmail ?? "")
        .trim()
        .toLowerCase();
  const { maxLoginAttempts } = await getSettings(database);
  if ((await recentFailures(database, email)) >= maxLoginAttempts) {
    return { ok: false, reason: "locked", email };
  }
  const user = parsedEmail.success ? await getUserWithPasswordByEmail(database, email) : undefined;
  const valid =
    typeof password === "string" && user
      ? await verifyPassword(password, user.password_hash)
      : false;
  if (!user || !valid) {
    await database.insertInto("login_failures").values({ email }).execute();
    return { ok: false, reason: "invalid", email };
  }
  if (!user.email_verified_at) return { ok: false, reason: "unverified", email };
  await database.deleteFrom("login_failures").where("email", "=", email).execute();
  return { ok: true, user: (await getUserById(database, user.id))! };
}

export const authenticator = new Authenticator<SignInResult>();
authenticator.use(
  new FormStrategy(async ({ form }) => verifySignIn(db, form.get("email"), form.get("password"))),
  "form",
);

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

/**
 * A POST whose Origin header names another site is refused (CSRF). Browsers always send Origin on
 * POST; a request without it is not a cross-site browser request.
 */
export function assertSameOrigin(request: Request): void {
  if (request.method === "GET" || request.method === "HEAD") return;
  const origin = request.headers.get("Origin");
  if (origin === null) return;
  const host = request.headers.get("X-Forwarded-Host") ?? request.headers.get("Host");
  let originHost: string | null = null;
  try {
    originHost = origin === "null" ? null : new URL(origin).host;
  } catch {
    originHost = null;
  }
  if (!host || originHost !== host) {
    throw new Response("Solicitud rechazada: origen no permitido.", {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
}

export async function requireUser(request: Request): Promise<PublicUser> {
  assertSameOrigin(request);
  const user = await getOptionalUser(request);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/auth?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
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
