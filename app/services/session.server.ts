import crypto from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { createCookie, createCookieSessionStorage, type Cookie } from "@remix-run/node";
import { db, now, writeTransaction, type DB } from "./db.server";
import { appUrl, env } from "./env.server";
import type { FailCode } from "~/domain/result";
import type { Toast } from "~/utils/toast";
import { isReplica } from "./litefs.server";
import { getSettings } from "./settings.server";

const SESSION_COOKIE = "__session";
/** How often a session's last-seen time is written; avoids a write on every request. */
const TOUCH_INTERVAL_MS = 60_000;
/** Sessions never outlive this, whatever the inactivity setting says. */
const ABSOLUTE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** The secret of each database, read once: it is created once and never changes. */
const secrets = new WeakMap<DB, Promise<string>>();

/**
 * SESSION_SECRET, or a secret generated on first run and kept in the database (never in code).
 * Read once per process: a page signs one link per file it shows.
 */
export function cookieSecret(database: DB): Promise<string> {
  if (env.SESSION_SECRET) return Promise.resolve(env.SESSION_SECRET);
  let secret = secrets.get(database);
  if (!secret) {
    secret = storedSecret(database);
    secrets.set(database, secret);
    secret.catch(() => secrets.delete(database));
  }
  return secret;
}

async function storedSecret(database: DB): Promise<string> {
  const existing = await database
    .selectFrom("secrets")
    .select("value")
    .where("name", "=", "session_secret")
    .executeTakeFirst();
  if (existing) return existing.value;
  await database
    .insertInto("secrets")
    .values({ name: "session_secret", value: crypto.randomBytes(32).toString("base64url") })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await database
    .selectFrom("secrets")
    .select("value")
    .where("name", "=", "session_secret")
    .executeTakeFirstOrThrow();
  return row.value;
}

const secure = appUrl().startsWith("https://");

/**
 * What is flashed to the next page: a toast, and a refused form's errors for a page whose forms post
 * to other routes (the admin request detail). Each lives in its own signed cookie, read once.
 */
export interface FlashedForm {
  /** The page the errors belong to; another page ignores them. */
  path: string;
  /** Which form on that page was refused. */
  form: string;
  result: SubmissionResult<string[]>;
  code?: FailCode;
}
interface Flashes {
  toast: Toast;
  form: FlashedForm;
}
const FLASH_COOKIES: Record<keyof Flashes, string> = { toast: "__toast", form: "__form" };

function createFlashStorage(name: string, secret: string) {
  return createCookieSessionStorage<Partial<Flashes>, Partial<Flashes>>({
    cookie: {
      name,
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secrets: [secret],
      secure,
      // Short-lived: a flash not shown within a minute is stale.
      maxAge: 60,
    },
  });
}

type FlashStorage = ReturnType<typeof createFlashStorage>;

let cookies:
  | Promise<{ session: Cookie; device: Cookie; flash: Record<keyof Flashes, FlashStorage> }>
  | undefined;

function getCookies() {
  cookies ??= cookieSecret(db).then((secret) => ({
    session: createCookie(SESSION_COOKIE, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
      secrets: [secret],
      maxAge: ABSOLUTE_LIFETIME_MS / 1000,
    }),
    device: createCookie(DEVICE_COOKIE, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
      secrets: [secret],
      maxAge: DEVICE_LIFETIME_S,
    }),
    flash: {
      toast: createFlashStorage(FLASH_COOKIES.toast, secret),
      form: createFlashStorage(FLASH_COOKIES.form, secret),
    },
  }));
  return cookies;
}

/**
 * Device cookies (OWASP's answer to distributed password guessing, ADR 0018): a browser where an
 * account signed in successfully carries, signed, that account's id and a random nonce. Sign-in
 * from such a browser is limited by its own failures only, so the owner still signs in while
 * unknown devices are locked out of the account. One cookie holds the few accounts used in it.
 */
const DEVICE_COOKIE = "__dispositivo";
const DEVICE_LIFETIME_S = 365 * 24 * 60 * 60;
const MAX_DEVICE_ACCOUNTS = 5;

export interface KnownDevice {
  userId: number;
  nonce: string;
}

function isKnownDevice(value: unknown): value is KnownDevice {
  const entry = value as KnownDevice;
  return (
    typeof entry === "object" &&
    entry !== null &&
    Number.isSafeInteger(entry.userId) &&
    typeof entry.nonce === "string" &&
    /^[0-9a-f]{32}$/.test(entry.nonce)
  );
}

/** The accounts this browser signed in to before (an unsigned or altered cookie counts as none). */
export async function readKnownDevices(request: Request): Promise<KnownDevice[]> {
  const { device } = await getCookies();
  const value: unknown = await device.parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter(isKnownDevice).slice(0, MAX_DEVICE_ACCOUNTS) : [];
}

/** The Set-Cookie that makes this browser known to `userId` (its nonce kept when it had one). */
export async function rememberDevice(request: Request, userId: number): Promise<string> {
  const { device } = await getCookies();
  const known = await readKnownDevices(request);
  const mine = known.find((entry) => entry.userId === userId) ?? {
    userId,
    nonce: crypto.randomBytes(16).toString("hex"),
  };
  const others = known.filter((entry) => entry.userId !== userId);
  return device.serialize([mine, ...others].slice(0, MAX_DEVICE_ACCOUNTS));
}

/** The id of the session the request's cookie names (null without one). */
export async function readSessionId(request: Request): Promise<string | null> {
  const { session } = await getCookies();
  const value = await session.parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** The request still carries a session cookie (signed in once; the session may have ended since). */
export async function hasSessionCookie(request: Request): Promise<boolean> {
  return (await readSessionId(request)) !== null;
}

interface SessionRecord {
  id: string;
  userId: number;
}

/**
 * The live session behind the request's cookie, or null. A session ends after the session-timeout
 * setting of inactivity (read on every request, so a changed setting applies at once). A
 * deactivated user has no live session: deactivating deletes their sessions, and one started in a
 * race with it (a sign-in checked just before) is refused here and deleted.
 */
export async function loadSession(database: DB, request: Request): Promise<SessionRecord | null> {
  const id = await readSessionId(request);
  if (!id) return null;
  const row = await database
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.id",
      "sessions.user_id",
      "sessions.last_seen_at",
      "sessions.expires_at",
      "users.deactivated_at",
    ])
    .where("sessions.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  // A LiteFS replica reads only (ADR 0013): the primary ends, deletes and touches sessions.
  const readOnly = isReplica();
  if (row.deactivated_at !== null) {
    if (!readOnly) await endAllSessionsOfUser(database, row.user_id);
    return null;
  }
  const { sessionTimeoutMinutes } = await getSettings(database);
  const current = Date.now();
  const idleUntil = Date.parse(row.last_seen_at) + sessionTimeoutMinutes * 60_000;
  if (current > idleUntil || current > Date.parse(row.expires_at)) {
    if (!readOnly) await database.deleteFrom("sessions").where("id", "=", id).execute();
    return null;
  }
  if (current - Date.parse(row.last_seen_at) > TOUCH_INTERVAL_MS && !readOnly) {
    await database
      .updateTable("sessions")
      .set({ last_seen_at: now() })
      .where("id", "=", id)
      .execute();
  }
  return { id: row.id, userId: row.user_id };
}

export interface StartedSession {
  setCookie: string;
  /** No session of this account was ever started before this one (its first sign-in). */
  firstSignIn: boolean;
}

/** Starts a new session (a fresh id, so a planted cookie is worthless) and returns its Set-Cookie. */
export async function startSession(
  database: DB,
  request: Request,
  userId: number,
): Promise<string> {
  return (await signInSession(database, request, userId)).setCookie;
}

/**
 * startSession, also saying whether this is the account's first session (the sign-in form greets
 * a new account differently). Every session stamps the account's last sign-in.
 */
export async function signInSession(
  database: DB,
  request: Request,
  userId: number,
): Promise<StartedSession> {
  const previous = await readSessionId(request);
  const id = crypto.randomBytes(32).toString("base64url");
  const timestamp = now();
  const firstSignIn = await writeTransaction(database, async (tx) => {
    // Read and stamped in one IMMEDIATE transaction: two sign-ins at once cannot both be the first.
    const account = await tx
      .selectFrom("users")
      .select("last_sign_in_at")
      .where("id", "=", userId)
      .executeTakeFirst();
    await tx
      .updateTable("users")
      .set({ last_sign_in_at: timestamp })
      .where("id", "=", userId)
      .execute();
    if (previous) await tx.deleteFrom("sessions").where("id", "=", previous).execute();
    await tx
      .insertInto("sessions")
      .values({
        id,
        user_id: userId,
        created_at: timestamp,
        last_seen_at: timestamp,
        expires_at: new Date(Date.now() + ABSOLUTE_LIFETIME_MS).toISOString(),
        user_agent: request.headers.get("User-Agent")?.slice(0, 300) ?? null,
      })
      .execute();
    return account?.last_sign_in_at === null;
  });
  const { session } = await getCookies();
  return { setCookie: await session.serialize(id), firstSignIn };
}

export async function endSession(database: DB, request: Request): Promise<string> {
  const id = await readSessionId(request);
  if (id) await database.deleteFrom("sessions").where("id", "=", id).execute();
  const { session } = await getCookies();
  return session.serialize("", { maxAge: 0, expires: new Date(0) });
}

export async function endAllSessionsOfUser(database: DB, userId: number): Promise<void> {
  await database.deleteFrom("sessions").where("user_id", "=", userId).execute();
}

/** Ends every session of the user except `keepSessionId` (the one that changed the password). */
export async function endOtherSessionsOfUser(
  database: DB,
  userId: number,
  keepSessionId: string | null,
): Promise<void> {
  let query = database.deleteFrom("sessions").where("user_id", "=", userId);
  if (keepSessionId) query = query.where("id", "!=", keepSessionId);
  await query.execute();
}

export async function purgeExpiredSessions(database: DB): Promise<void> {
  await database.deleteFrom("sessions").where("expires_at", "<", now()).execute();
}

// ---- Flashes: shown once on the next page, rendered by the server so they work without JS.

/** The Set-Cookie that flashes `value` to the next request (use respond.server's helpers). */
export async function flashCookie<K extends keyof Flashes>(
  key: K,
  value: Flashes[K],
): Promise<string> {
  const storage = (await getCookies()).flash[key];
  const session = await storage.getSession();
  session.flash(key, value);
  return storage.commitSession(session);
}

/** The flashed value, if any, and the Set-Cookie that clears it. */
export async function readFlash<K extends keyof Flashes>(
  request: Request,
  key: K,
): Promise<{ value: Flashes[K] | null; setCookie: string | null }> {
  const storage = (await getCookies()).flash[key];
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes(FLASH_COOKIES[key])) return { value: null, setCookie: null };
  const session = await storage.getSession(cookieHeader);
  const value = (session.get(key) as Flashes[K] | undefined) ?? null;
  return { value, setCookie: await storage.commitSession(session) };
}
