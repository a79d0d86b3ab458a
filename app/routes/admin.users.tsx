import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { z } from "zod";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Notice } from "~/components/admin/Notice";
import { SearchBar } from "~/components/admin/SearchBar";
import { Badge } from "~/components/ui/Badge";
import { EmptyState } from "~/components/ui/EmptyState";
import { KeysetPagination } from "~/components/ui/KeysetPagination";
import { ROLE_LABELS, ROLES } from "~/domain/roles";
import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import { changeUserRole, listUsersForAdmin, roleFromUrl } from "~/models/admin-user.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { formatDate } from "~/utils/format";
import { searchFromUrl } from "~/utils/like";
import { idField } from "~/domain/validation";
import { readForm } from "~/services/form.server";
import { invalidForm, respond, samePage } from "~/services/respond.server";
import { pageRequestFromUrl } from "~/utils/keyset";
import { pageMeta } from "~/utils/meta";
import { paths } from "~/utils/paths";

export const meta: MetaFunction = () =>
  pageMeta(
    "Usuarios · Administración · CotizaHub",
    "Usuarios de la plataforma, con búsqueda y cambio de rol.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const url = new URL(request.url);
  const q = searchFromUrl(url);
  const role = roleFromUrl(url);
  const page = pageRequestFromUrl(url);
  const { users, total, pageInfo } = await listUsersForAdmin(db, { q, role, page });
  return { users, total, pageInfo, q, role };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  const schema = z.object({
    intent: z.literal("role", { errorMap: () => ({ message: "Acción no reconocida." }) }),
    userId: idField("Usuario no encontrado."),
    role: z.enum(ROLES, { errorMap: () => ({ message: "Elige un rol válido." }) }),
  });
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return invalidForm(submission);
  const result = await changeUserRole(db, submission.value);
  return respond(result, submission, () => ({
    to: samePage(request),
    toast: { type: "success", title: "Éxito", description: "Rol actualizado" },
  }));
}

export default function AdminUsers() {
  const { users, total, pageInfo, q, role } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div>
      <h1 className="page-title">Usuarios</h1>
      <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
        <p className="text-slate-700">
          {total} {total === 1 ? "usuario" : "usuarios"}
          {q || role ? " con los filtros aplicados" : " registrados"}.
        </p>
        {/* A file, not a page: a plain link, so the browser downloads it. */}
        <a href={paths.admin.usersCsv({ q, role })} className="btn-secondary" download>
          Exportar CSV
          {q || role ? <span className="sr-only"> de los usuarios filtrados</span> : null}
        </a>
      </div>
      <Notice reply={actionData} failed="No se pudo actualizar el rol." />
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
      </SearchBar>
      {users.length === 0 ? (
        <div className="mt-6">
          <EmptyState title="No se encontraron usuarios">
            Prueba con otra búsqueda o quita el filtro de rol.
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
                  Rol
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Verificación
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Alta
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Cambiar rol
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
                      <p className="break-all text-slate-600">{user.email}</p>
                    </td>
                    <td data-label="Empresa" className="px-4 py-3 text-slate-700">
                      {user.company_name ?? "—"}
                    </td>
                    <td data-label="Rol" className="px-4 py-3">
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
                    </td>
                    <td data-label="Verificación" className="px-4 py-3">
                      {user.email_verified_at ? (
                        <Badge tone="green">Verificado</Badge>
                      ) : (
                        <Badge tone="yellow">Sin verificar</Badge>
                      )}
                    </td>
                    <td data-label="Alta" className="whitespace-nowrap px-4 py-3 text-slate-700">
                      {formatDate(user.created_at)}
                    </td>
                    <td data-label="Cambiar rol" className="px-4 py-3">
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
