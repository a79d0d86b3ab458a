import { sql } from "kysely";
import { fail, ok, type Result } from "~/domain/result";
import type { Role } from "../../db/schema";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import { isRole, ROLE_LABELS } from "~/domain/roles";
import { issueToken, revokeTokens } from "~/models/auth-token.server";
import {
  createUser,
  displayName,
  emailExists,
  INVITATION_PENDING,
  NO_PASSWORD_HASH,
} from "~/models/user.server";
import { now, writeTransaction, type DB, type Tx } from "~/services/db.server";
import { absoluteUrl, deliverSoon, enqueueMail } from "~/services/mailer.server";
import { endAllSessionsOfUser } from "~/services/session.server";
import { paths } from "~/utils/paths";
import { withoutFinalStop } from "~/utils/format";
import { containsPattern } from "~/utils/like";
import { finishPage, type PageInfo, type PageRequest } from "~/utils/keyset";
import { inBatches, inKeysetBatches, readKeysetPage } from "./keyset.server";
import { withdrawOpenInvitations } from "./sourcing-round.server";
import { hasRange, rangeInstants, type DayRange, type USER_SORTS } from "~/domain/list-filters";
import { matchExpression, needsLiteralMatch } from "~/utils/search";

export const LAST_ADMIN_MESSAGE =
  "No se puede quitar el rol de administrador al último administrador. Asigna primero el rol de administrador a otra persona.";
export const LAST_ACTIVE_ADMIN_MESSAGE =
  "No se puede desactivar al último administrador activo. Asigna primero el rol de administrador a otra persona.";
export const SELF_DEACTIVATION_MESSAGE = "No puedes desactivar tu propia cuenta.";
export const EMAIL_TAKEN_MESSAGE = "Ya existe una cuenta con este correo.";
export const NO_LONGER_ADMIN_MESSAGE = "Tu cuenta ya no tiene permisos de administrador.";
export const ALREADY_ACTIVATED_MESSAGE =
  "Esta persona ya eligió su contraseña: no necesita otra invitación.";
export const REACTIVATE_FIRST_MESSAGE = "Reactiva la cuenta antes de reenviar la invitación.";

/** Days an invitation link stays valid (the token's lifetime in auth-token.server). */
const INVITATION_DAYS = 7;

/** The list's account filter: active, deactivated, or invited and not yet activated. */
export type AccountStatus = "active" | "deactivated" | "invited";

interface AdminUserRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  company_name: string | null;
  role: Role;
  email_verified_at: string | null;
  created_at: string;
  deactivated_at: string | null;
  /** 1 while the user was invited and has not chosen a password yet. */
  invitation_pending: number;
}

/** The users list's role filter from ?role= (anything else means every role). */
export function roleFromUrl(url: URL): Role | null {
  const role = url.searchParams.get("role");
  return isRole(role) ? role : null;
}

const ACCOUNT_STATUSES: readonly AccountStatus[] = ["active", "deactivated", "invited"];

/** The users list's account filter from ?status= (anything else means every account). */
export function accountStatusFromUrl(url: URL): AccountStatus | null {
  const status = url.searchParams.get("status");
  return (ACCOUNT_STATUSES as readonly (string | null)[]).includes(status)
    ? (status as AccountStatus)
    : null;
}

interface UserFilters {
  q: string;
  role: Role | null;
  status?: AccountStatus | null;
  /** Days of sign-up (app/domain/list-filters). */
  range?: DayRange;
  /** Newest first unless "antiguos". */
  sort?: UserSort;
}

type UserSort = (typeof USER_SORTS)[number];

/** The users list's keyset columns: by sign-up, newest or oldest first. */
const userSortColumns = (sort: UserSort = "recientes") =>
  ({ key: "created_at", id: "id", order: sort === "antiguos" ? "asc" : "desc" }) as const;

/**
 * The users list's filters: a search over name, e-mail and company, an optional role and an
 * optional account status. The list and its CSV export both read through it.
 */
function filteredUsers(database: DB, { q, role, status = null, range }: UserFilters) {
  let query = database.selectFrom("users");
  if (range && hasRange(range)) {
    const { start, end } = rangeInstants(range);
    if (start) query = query.where("created_at", ">=", start);
    if (end) query = query.where("created_at", "<", end);
  }
  if (role) query = query.where("role", "=", role);
  if (status === "active") query = query.where("deactivated_at", "is", null);
  if (status === "deactivated") query = query.where("deactivated_at", "is not", null);
  if (status === "invited") query = query.where(INVITATION_PENDING);
  if (!q) return query;
  // Full-text (accent-insensitive, partial words) over name, company and e-mail; a literal
  // LIKE as well when the text has punctuation (an e-mail, "S.A.").
  const expression = matchExpression(q, ["name", "company", "email"]);
  if (expression)
    query = query.where(
      "id",
      "in",
      database
        .selectFrom("user_search")
        .select("user_search.rowid")
        .where(sql<boolean>`user_search MATCH ${expression}`),
    );
  if (!expression || needsLiteralMatch(q)) {
    const pattern = containsPattern(q);
    query = query.where(
      sql<boolean>`(first_name || ' ' || last_name LIKE ${pattern} ESCAPE '\\'
        OR email LIKE ${pattern} ESCAPE '\\'
        OR coalesce(company_name, '') LIKE ${pattern} ESCAPE '\\')`,
    );
  }
  return query;
}

const adminUserColumns = [
  "id",
  "email",
  "first_name",
  "last_name",
  "company_name",
  "role",
  "email_verified_at",
  "created_at",
  "deactivated_at",
] as const;

/**
 * Users for /admin/users: search over name, e-mail and company, an optional role and account
 * status, 25 a page.
 */
export async function listUsersForAdmin(
  database: DB,
  {
    q,
    role,
    status = null,
    range = { from: null, to: null },
    sort = "recientes",
    page,
  }: UserFilters & { page: PageRequest },
): Promise<{ users: AdminUserRow[]; total: number; pageInfo: PageInfo }> {
  const query = filteredUsers(database, { q, role, status, range });
  const [read, total] = await Promise.all([
    readKeysetPage(
      query.select([
        ...adminUserColumns,
        sql<number>`${INVITATION_PENDING}`.as("invitation_pending"),
      ]),
      page,
      userSortColumns(sort),
      ADMIN_PAGE_SIZE,
    ),
    // A range is counted in the creation index (at most the 10,000 users of DECISIONS §5).
    q || status || hasRange(range)
      ? query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()
      : database
          .selectFrom("user_role_counts")
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("users"), eb.lit(0)).as("n"))
          .$if(role !== null, (qb) => qb.where("role", "=", role!))
          .executeTakeFirstOrThrow(),
  ]);
  const { rows, pageInfo } = finishPage(read, page, ADMIN_PAGE_SIZE, (u) => ({
    key: u.created_at,
    id: u.id,
  }));
  return { users: rows, total: Number(total.n), pageInfo };
}

/**
 * Every user the users list shows with these filters, for the CSV export, in batches: newest first
 * (read by id), or oldest first when the list is sorted so (read as the list's pages are).
 */
export async function* exportAdminUsers(
  database: DB,
  { q, role, status = null, range, sort = "recientes" }: UserFilters,
) {
  if (sort === "antiguos") {
    const sorted = filteredUsers(database, { q, role, status, range }).select([
      ...adminUserColumns,
      "phone",
      sql<number>`${INVITATION_PENDING}`.as("invitation_pending"),
    ]);
    yield* inKeysetBatches(
      (request, size) => readKeysetPage(sorted, request, userSortColumns(sort), size),
      (u) => ({ key: u.created_at, id: u.id }),
    );
    return;
  }
  // `+role` keeps SQLite reading the batches down the primary key (one pass over the table in
  // all): through users_role_created, on a database without statistics, it sorted the role's
  // whole set again for every batch (90,000 buyers: 12 s instead of under 1 s).
  const query = filteredUsers(database, { q, role: null, status, range })
    .$if(role !== null, (qb) => qb.where(sql<boolean>`+users.role = ${role}`))
    .select([
      ...adminUserColumns,
      "phone",
      sql<number>`${INVITATION_PENDING}`.as("invitation_pending"),
    ]);
  yield* inBatches(query, "users.id");
}

/**
 * Changes a user's role. The last active admin keeps theirs (checked inside the write transaction,
 * so two admins demoting each other at once cannot both succeed). Only partners can stay featured,
 * and a partner who stops being one has their invitations still waiting for an offer withdrawn in
 * the same transaction, as deactivation does (withdrawOpenInvitations): offers already sent stay
 * for the operator to choose from. `withdrawnInvitations` is there only when a partner stopped
 * being one. `adminId` is the operator, for the requests' history.
 */
export function changeUserRole(
  database: DB,
  { userId, role, adminId = null }: { userId: number; role: Role; adminId?: number | null },
): Promise<Result<{ changed: boolean; withdrawnInvitations?: number }>> {
  return writeTransaction(database, async (tx) => {
    const user = await userForChange(tx, userId);
    if (!user) return fail("not_found", "Usuario no encontrado.");
    if (user.role === role) return ok({ changed: false });
    if (await isLastActiveAdmin(tx, user)) return fail("conflict", LAST_ADMIN_MESSAGE);
    await tx
      .updateTable("users")
      .set({
        role,
        updated_at: now(),
        ...(role === "partner" ? {} : { is_featured_partner: 0 }),
      })
      .where("id", "=", userId)
      .execute();
    if (user.role !== "partner") return ok({ changed: true });
    const withdrawnInvitations = await withdrawOpenInvitations(tx, {
      partnerId: userId,
      adminId,
      partner: displayName(user),
      because: "not_partner",
    });
    return ok({ changed: true, withdrawnInvitations });
  });
}

/**
 * The one "last admin" rule, for role changes and deactivation alike: an active admin is the last
 * one when no other active admin exists (deactivated admins cannot run the platform). Read inside
 * the caller's write transaction.
 */
async function isLastActiveAdmin(
  tx: Tx,
  user: { role: Role; deactivated_at: string | null },
): Promise<boolean> {
  if (user.role !== "admin" || user.deactivated_at !== null) return false;
  const { n } = await tx
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("role", "=", "admin")
    .where("deactivated_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(n) <= 1;
}

/**
 * The operator acting, re-read inside the write transaction: their own account may have been
 * deactivated or demoted since the request's guard let them in.
 */
async function actingAdmin(tx: Tx, adminId: number) {
  return tx
    .selectFrom("users")
    .select(["id", "first_name", "last_name"])
    .where("id", "=", adminId)
    .where("role", "=", "admin")
    .where("deactivated_at", "is", null)
    .executeTakeFirst();
}

const userForChange = (tx: Tx, userId: number) =>
  tx
    .selectFrom("users")
    .select([
      "id",
      "email",
      "first_name",
      "last_name",
      "company_name",
      "role",
      "password_hash",
      "deactivated_at",
    ])
    .where("id", "=", userId)
    .executeTakeFirst();

/**
 * Deactivates an account: from this commit on the person cannot sign in, every open session of
 * theirs is gone (deleted here; one started in a race is refused when read) and every link already
 * e-mailed to them (reset, verification, invitation) stops working; a partner's invitations still
 * waiting for an offer are withdrawn (withdrawOpenInvitations). An admin cannot deactivate
 * themselves, nor the last active admin. Deactivating twice changes nothing.
 */
export function deactivateUser(
  database: DB,
  { userId, adminId }: { userId: number; adminId: number },
): Promise<Result<{ name: string; withdrawnInvitations: number }>> {
  return writeTransaction(database, async (tx) => {
    const user = await userForChange(tx, userId);
    if (!user) return fail("not_found", "Usuario no encontrado.");
    if (user.id === adminId) return fail("forbidden", SELF_DEACTIVATION_MESSAGE);
    const name = displayName(user);
    if (user.deactivated_at !== null) return ok({ name, withdrawnInvitations: 0 });
    // Two admins deactivating each other at once: the second finds the other one the last.
    if (await isLastActiveAdmin(tx, user)) return fail("conflict", LAST_ACTIVE_ADMIN_MESSAGE);
    if (!(await actingAdmin(tx, adminId))) return fail("forbidden", NO_LONGER_ADMIN_MESSAGE);
    const timestamp = now();
    await tx
      .updateTable("users")
      .set({ deactivated_at: timestamp, deactivated_by: adminId, updated_at: timestamp })
      .where("id", "=", userId)
      .execute();
    await endAllSessionsOfUser(tx, userId);
    await revokeTokens(tx, userId);
    const withdrawnInvitations =
      user.role === "partner"
        ? await withdrawOpenInvitations(tx, {
            partnerId: userId,
            adminId,
            partner: name,
            because: "deactivated",
          })
        : 0;
    return ok({ name, withdrawnInvitations });
  });
}

/**
 * Reactivates an account: the person signs in again with their password (the sessions and links
 * that deactivation ended stay ended). Reactivating an active account changes nothing.
 */
export function reactivateUser(
  database: DB,
  { userId, adminId }: { userId: number; adminId: number },
): Promise<Result<{ name: string }>> {
  return writeTransaction(database, async (tx) => {
    if (!(await actingAdmin(tx, adminId))) return fail("forbidden", NO_LONGER_ADMIN_MESSAGE);
    const user = await userForChange(tx, userId);
    if (!user) return fail("not_found", "Usuario no encontrado.");
    if (user.deactivated_at !== null) {
      await tx
        .updateTable("users")
        .set({ deactivated_at: null, deactivated_by: null, updated_at: now() })
        .where("id", "=", userId)
        .execute();
    }
    return ok({ name: displayName(user) });
  });
}

export interface InvitationInput {
  email: string;
  firstName: string;
  lastName: string;
  companyName: string | null;
  role: Role;
}

function invitationMail(
  user: { email: string; first_name: string; company_name: string | null; role: Role },
  inviter: string,
  token: string,
) {
  const as = ROLE_LABELS[user.role].toLowerCase();
  return {
    to: user.email,
    subject: "Activa tu cuenta de CotizaHub",
    paragraphs: [
      `Hola ${user.first_name}:`,
      `${inviter} te invitó a CotizaHub como ${as}${user.company_name ? ` de ${withoutFinalStop(user.company_name)}` : ""}.`,
      `Para activar tu cuenta, elige tu contraseña con el siguiente enlace. El enlace vence en ${INVITATION_DAYS} días.`,
      "Si no esperabas esta invitación, ignora este mensaje.",
    ],
    action: { label: "Activa tu cuenta", url: absoluteUrl(paths.resetPassword(token)) },
  };
}

/**
 * Creates an account for someone else, without a password (NO_PASSWORD_HASH), and e-mails them a
 * link to choose one: using it verifies the e-mail and signs them in. An e-mail that already has
 * an account is refused next to the field and nothing is stored.
 */
export async function inviteUser(
  database: DB,
  { input, adminId }: { input: InvitationInput; adminId: number },
): Promise<Result<{ userId: number; email: string }>> {
  const taken = fail("conflict", EMAIL_TAKEN_MESSAGE, "email");
  try {
    const result = await writeTransaction(database, async (tx) => {
      const admin = await actingAdmin(tx, adminId);
      if (!admin) return fail("forbidden", NO_LONGER_ADMIN_MESSAGE);
      if (await emailExists(tx, input.email)) return taken;
      const user = await createUser(tx, {
        ...input,
        passwordHash: NO_PASSWORD_HASH,
        verified: false,
      });
      const token = await issueToken(tx, user.id, "invitation");
      await enqueueMail(tx, invitationMail(user, displayName(admin), token));
      return ok({ userId: user.id, email: user.email });
    });
    if (result.ok) deliverSoon();
    return result;
  } catch (error) {
    // Two invitations (or a sign-up) racing for one e-mail: the UNIQUE index decides.
    if (error instanceof Error && /UNIQUE constraint failed: users\.email/.test(error.message)) {
      return taken;
    }
    throw error;
  }
}

/**
 * Sends an invited user a new set-password link (the earlier one stops working), while they have
 * not chosen a password and the account is active.
 */
export async function resendInvitation(
  database: DB,
  { userId, adminId }: { userId: number; adminId: number },
): Promise<Result<{ email: string }>> {
  const result = await writeTransaction(database, async (tx) => {
    const admin = await actingAdmin(tx, adminId);
    if (!admin) return fail("forbidden", NO_LONGER_ADMIN_MESSAGE);
    const user = await userForChange(tx, userId);
    if (!user) return fail("not_found", "Usuario no encontrado.");
    if (user.deactivated_at !== null) return fail("locked", REACTIVATE_FIRST_MESSAGE);
    if (user.password_hash !== NO_PASSWORD_HASH) return fail("conflict", ALREADY_ACTIVATED_MESSAGE);
    const token = await issueToken(tx, user.id, "invitation");
    await enqueueMail(tx, invitationMail(user, displayName(admin), token));
    return ok({ email: user.email });
  });
  if (result.ok) deliverSoon();
  return result;
}
