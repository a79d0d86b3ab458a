import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { z } from "zod";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Notice } from "~/components/admin/Notice";
import { FilterSelect, SearchBar } from "~/components/admin/SearchBar";
import { Badge } from "~/components/ui/Badge";
import { EmptyState } from "~/components/ui/EmptyState";
import { Field, FormErrors, SelectField } from "~/components/ui/Field";
import { KeysetPagination } from "~/components/ui/KeysetPagination";
import { ROLE_LABELS, ROLES } from "~/domain/roles";
import {
  dateRangeFrom,
  hasRange,
  RANGE_SUBJECTS,
  sortFrom,
  USER_SORTS,
} from "~/domain/list-filters";
import {
  ActiveFilters,
  DateRangeFields,
  rangeChip,
  SortSelect,
  sortChip,
} from "~/components/ui/ListFilters";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import {
  changeUserRole,
  deactivateUser,
  inviteUser,
  listUsersForAdmin,
  reactivateUser,
  resendInvitation,
  accountStatusFromUrl,
  roleFromUrl,
  type AccountStatus,
} from "~/models/admin-user.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { countOf, formatDate } from "~/utils/format";
import { searchFromUrl } from "~/utils/like";
import { emailField, idField, optionalText, requiredText } from "~/domain/validation";
import { intents, readForm } from "~/services/form.server";
import { invalidForm, respond, samePage } from "~/services/respond.server";
import { pageRequestFromUrl } from "~/utils/keyset";
import { pageMeta } from "~/utils/meta";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";

export const meta: MetaFunction = () =>
  pageMeta(
    "Usuarios · Administración · CotizaHub",
    "Usuarios de la plataforma: búsqueda, cambio de rol, invitaciones y desactivación de cuentas.",
  );

const ACCOUNT_STATUS_LABELS: Record<AccountStatus, string> = {
  active: "Activos",
  deactivated: "Desactivados",
  invited: "Invitación pendiente",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const url = new URL(request.url);
  const q = searchFromUrl(url);
  const role = roleFromUrl(url);
  const status = accountStatusFromUrl(url);
  const page = pageRequestFromUrl(url);
  const dates = dateRangeFrom(url.searchParams);
  const sort = sortFrom(url.searchParams.get("orden"), USER_SORTS);
  const { users, total, pageInfo } = await listUsersForAdmin(db, {
    q,
    role,
    status,
    page,
    range: dates.range,
    sort,
  });
  return { users, total, pageInfo, q, role, status, dates, sort, currentUserId: admin.id };
}

/** What each intent could not do, before the reason (the Notice above the list). */
const FAILED: Record<string, string> = {
  role: "No se pudo actualizar el rol.",
  deactivate: "No se pudo desactivar la cuenta.",
  reactivate: "No se pudo reactivar la cuenta.",
  resend: "No se pudo reenviar la invitación.",
};

/** What the notice adds when a partner's open invitations were withdrawn (none: nothing). */
function withdrawnNote(count: number): string {
  if (count === 0) return "";
  return count === 1
    ? " Se retiró 1 invitación que esperaba su oferta."
    : ` Se retiraron ${countOf(count, "invitación", "invitaciones")} que esperaban su oferta.`;
}

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function schema() {
  const userId = idField("Usuario no encontrado.");
  const role = z.enum(ROLES, { errorMap: () => ({ message: "Elige un rol válido." }) });
  return intents([
    z.object({ intent: z.literal("role"), userId, role }),
    z.object({
      intent: z.literal("invite"),
      first_name: requiredText("El nombre", 80),
      last_name: requiredText("El apellido", 80),
      email: emailField,
      company_name: optionalText(120),
      role,
    }),
    z.object({ intent: z.literal("deactivate"), userId }),
    z.object({ intent: z.literal("reactivate"), userId }),
    z.object({ intent: z.literal("resend"), userId }),
  ]);
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const submission = parseWithZod(await readForm(request), { schema: schema() });
  if (submission.status !== "success") return invalidForm(submission);
  const input = submission.value;
  const done = (title: string, description: string, type: "success" | "info" = "success") => ({
    to: samePage(request),
    toast: { type, title, description },
  });
  switch (input.intent) {
    case "invite": {
      const { first_name, last_name, email, company_name, role } = input;
      const result = await inviteUser(db, {
        input: {
          firstName: first_name,
          lastName: last_name,
          email,
          companyName: company_name,
          role,
        },
        adminId: admin.id,
      });
      return respond(result, submission, (invited) =>
        done("Invitación enviada", `Enviamos a ${invited.email} un enlace para activar su cuenta.`),
      );
    }
    case "deactivate":
      return respond(
        await deactivateUser(db, { userId: input.userId, adminId: admin.id }),
        submission,
        ({ name, withdrawnInvitations }) =>
          done(
            "Cuenta desactivada",
            `${name} ya no puede iniciar sesión y sus sesiones abiertas se cerraron.${withdrawnNote(withdrawnInvitations)}`,
          ),
      );
    case "reactivate":
      return respond(
        await reactivateUser(db, { userId: input.userId, adminId: admin.id }),
        submission,
        ({ name }) => done("Cuenta reactivada", `${name} puede volver a iniciar sesión.`),
      );
    case "resend":
      return respond(
        await resendInvitation(db, { userId: input.userId, adminId: admin.id }),
        submission,
        (sent) =>
          done(
            "Invitación reenviada",
            `Enviamos a ${sent.email} un nuevo enlace; el anterior ya no sirve.`,
          ),
      );
    case "role":
      return respond(
        await changeUserRole(db, { userId: input.userId, role: input.role, adminId: admin.id }),
        submission,
        ({ changed, withdrawnInvitations }) =>
          changed
            ? done(
                "Éxito",
                withdrawnInvitations
                  ? `Rol actualizado.${withdrawnNote(withdrawnInvitations)}`
                  : "Rol actualizado",
              )
            : done("Sin cambios", "El usuario ya tenía ese rol.", "info"),
      );
  }
}

export default function AdminUsers() {
  const { users, total, pageInfo, q, role, status, dates, sort, currentUserId } =
    useLoaderData<typeof loader>();
  const filtered = Boolean(q || role || status || hasRange(dates.range));
  const actionData = useActionData<typeof action>();
  const repliedIntent = String(actionData?.result.initialValue?.intent ?? "role");
  const invite = repliedIntent === "invite" ? actionData : undefined;
  return (
    <div>
      <h1 className="page-title">Usuarios</h1>
      <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
        <p className="text-slate-700">
          {total} {total === 1 ? "usuario" : "usuarios"}
          {filtered ? " con los filtros aplicados" : " registrados"}.
        </p>
        {/* A file, not a page: a plain link, so the browser downloads it. */}
        <a
          href={paths.admin.usersCsv({
            q,
            role,
            status,
            desde: dates.range.from,
            hasta: dates.range.to,
            orden: sort === USER_SORTS[0] ? null : sort,
          })}
          className="btn-secondary"
          download
        >
          Exportar CSV
          {filtered ? <span className="sr-only"> de los usuarios filtrados</span> : null}
        </a>
      </div>
      <Notice
        reply={invite ? undefined : actionData}
        failed={FAILED[repliedIntent] ?? FAILED.role!}
      />
      <InviteForm reply={invite} />
      <SearchBar q={q} label="Buscar por nombre, correo o empresa">
        <div>
          <label htmlFor="filter-role" className="label">
            Rol
          </label>
          <select id="filter-role" name="role" defaultValue={role ?? ""} className="input">
            <option value="">Todos</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <FilterSelect label="Cuenta" value={status} options={ACCOUNT_STATUS_LABELS} />
        <DateRangeFields input={dates} subject={RANGE_SUBJECTS.users} />
        <SortSelect sorts={USER_SORTS} value={sort} />
      </SearchBar>
      <div className="mt-3">
        <ActiveFilters
          chips={[rangeChip(dates, RANGE_SUBJECTS.users), sortChip(USER_SORTS, sort)]}
        />
      </div>
      {users.length === 0 ? (
        <div className="mt-6">
          <EmptyState title="No se encontraron usuarios">
            Prueba con otra búsqueda o quita los filtros.
          </EmptyState>
        </div>
      ) : (
        <div
          className="relative mt-6 overflow-x-auto rounded-lg border border-slate-200 bg-white"
          tabIndex={0}
          role="region"
          aria-label="Tabla de usuarios"
        >
          <table className="table-stack min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">Usuarios de la plataforma</caption>
            <thead className="bg-slate-50 text-left text-slate-700">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Usuario
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Empresa
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Rol y estado
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Alta
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Acciones
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {users.map((user) => {
                const name = `${user.first_name} ${user.last_name}`;
                return (
                  <tr key={user.id} data-testid={`user-${user.id}`}>
                    <td data-label="Usuario" className="min-w-[14rem] px-4 py-3">
                      <p className="font-medium text-slate-900">{name}</p>
                      <p className="text-slate-600 [overflow-wrap:anywhere]">{user.email}</p>
                    </td>
                    <td data-label="Empresa" className="px-4 py-3 text-slate-700">
                      {user.company_name ?? "—"}
                    </td>
                    <td data-label="Rol y estado" className="px-4 py-3">
                      <div className="flex flex-col items-start gap-1">
                        <Badge
                          tone={
                            user.role === "admin"
                              ? "purple"
                              : user.role === "partner"
                                ? "blue"
                                : "gray"
                          }
                        >
                          {ROLE_LABELS[user.role]}
                        </Badge>
                        <AccountBadge user={user} />
                      </div>
                    </td>
                    <td data-label="Alta" className="whitespace-nowrap px-4 py-3 text-slate-700">
                      {formatDate(user.created_at)}
                    </td>
                    <td data-label="Acciones" className="px-4 py-3">
                      <Form key={user.role} method="post" className="flex items-center gap-2">
                        <input type="hidden" name="intent" value="role" />
                        <input type="hidden" name="userId" value={user.id} />
                        <select
                          name="role"
                          defaultValue={user.role}
                          aria-label={`Rol de ${name}`}
                          className="input w-auto py-1.5"
                        >
                          {ROLES.map((r) => (
                            <option key={r} value={r}>
                              {ROLE_LABELS[r]}
                            </option>
                          ))}
                        </select>
                        <button
                          type="submit"
                          className="btn-secondary px-3 py-1.5"
                          aria-label={`Guardar rol de ${name}`}
                        >
                          Guardar
                        </button>
                      </Form>
                      <div className="mt-2">
                        <AccountActions user={user} name={name} self={user.id === currentUserId} />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <KeysetPagination pageInfo={pageInfo} pageSize={ADMIN_PAGE_SIZE} total={total} />
    </div>
  );
}

interface AccountRow {
  id: number;
  role: string;
  email_verified_at: string | null;
  deactivated_at: string | null;
  invitation_pending: number;
}

function AccountBadge({ user }: { user: AccountRow }) {
  if (user.deactivated_at) {
    return (
      <>
        <Badge tone="red">Desactivado</Badge>
        <p className="mt-1 whitespace-nowrap text-xs text-slate-600">
          desde el {formatDate(user.deactivated_at)}
        </p>
      </>
    );
  }
  if (user.invitation_pending) return <Badge tone="yellow">Invitación pendiente</Badge>;
  return user.email_verified_at ? (
    <Badge tone="green">Verificado</Badge>
  ) : (
    <Badge tone="yellow">Sin verificar</Badge>
  );
}

/** Plain POST forms: deactivation asks for confirmation in a <details>, so it needs no script. */
function AccountActions({ user, name, self }: { user: AccountRow; name: string; self: boolean }) {
  if (self) return <p className="text-slate-600">Tu cuenta</p>;
  if (user.deactivated_at) {
    return (
      <Form method="post">
        <input type="hidden" name="intent" value="reactivate" />
        <input type="hidden" name="userId" value={user.id} />
        <button type="submit" className="btn-secondary px-3 py-1.5">
          Reactivar<span className="sr-only"> la cuenta de {name}</span>
        </button>
      </Form>
    );
  }
  return (
    <div className="flex flex-col items-start gap-2">
      {user.invitation_pending ? (
        <Form method="post">
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="userId" value={user.id} />
          <button type="submit" className="btn-secondary px-3 py-1.5">
            Reenviar invitación<span className="sr-only"> a {name}</span>
          </button>
        </Form>
      ) : null}
      <details className="max-w-xs">
        <summary className="cursor-pointer font-semibold text-red-800">
          Desactivar<span className="sr-only"> la cuenta de {name}</span>
        </summary>
        <Form method="post" className="mt-2 space-y-2">
          <input type="hidden" name="intent" value="deactivate" />
          <input type="hidden" name="userId" value={user.id} />
          <p className="text-slate-700">
            {name} no podrá iniciar sesión, sus sesiones abiertas se cerrarán al instante y dejará
            de recibir correos.
            {user.role === "partner"
              ? " Sus invitaciones que esperan oferta se retiran; las ofertas ya enviadas se quedan."
              : ""}{" "}
            Podrás reactivar la cuenta cuando quieras.
          </p>
          <button type="submit" className="btn-danger px-3 py-1.5">
            Sí, desactivar<span className="sr-only"> la cuenta de {name}</span>
          </button>
        </Form>
      </details>
    </div>
  );
}

/** Creates an account for someone and e-mails them the link to choose their password. */
function InviteForm({ reply }: { reply: ReturnType<typeof useActionData<typeof action>> }) {
  const form = serverForm(reply?.result);
  // A new page (the redirect after an invitation) starts the form empty and closed; with
  // JavaScript it kept the invited person's details, and a second click answered «Ya existe…».
  const { key } = useLocation();
  return (
    <details key={key} className="card mt-6" open={Boolean(reply)}>
      <summary id="invitar" className="cursor-pointer font-semibold text-slate-900">
        Invitar a un usuario
      </summary>
      <Form noValidate method="post" aria-labelledby="invitar" className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="invite" />
        <FormErrors errors={form.formErrors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Nombre" {...form.field("first_name")} type="text" required />
          <Field label="Apellido" {...form.field("last_name")} type="text" required />
          {/* Someone else's address: the browser should not offer the operator's own. */}
          <Field
            label="Correo electrónico"
            {...form.field("email")}
            type="email"
            autoComplete="off"
            required
            hint="Recibirá un enlace para elegir su contraseña; vence en 7 días."
          />
          <Field label="Empresa (opcional)" {...form.field("company_name")} type="text" />
          <SelectField
            label="Rol"
            {...form.field("role")}
            defaultValue={form.field("role").defaultValue ?? "buyer"}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </SelectField>
        </div>
        <button type="submit" className="btn-primary">
          Enviar invitación
        </button>
      </Form>
    </details>
  );
}
