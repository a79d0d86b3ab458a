import { readForm } from "~/services/form.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Notice, type NoticeData } from "~/components/admin/Notice";
import { Badge } from "~/components/ui/Badge";
import { EmptyState } from "~/components/ui/EmptyState";
import { FieldErrors } from "~/components/ui/Field";
import { categoryNameSchema } from "~/domain/product";
import {
  createCategory,
  listCategoriesForAdmin,
  renameCategory,
  setCategoryActive,
} from "~/models/category.server";
import { requireRole } from "~/services/auth.server";
import { db } from "~/services/db.server";
import { redirectWithToast } from "~/utils/toast-redirect.server";
import { idFrom } from "~/utils/ids";

export const meta: MetaFunction = () => [{ title: "Categorías · Administración · CotizaHub" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { categories: await listCategoriesForAdmin(db) };
}

type ActionData = {
  /** The form that was refused: "create" or the id of the renamed category. */
  target: "create" | number;
  /** What the person typed, shown back in the field. */
  name: string;
  error: string;
};

const refuse = (target: ActionData["target"], name: string, error: string) =>
  data<ActionData | { notice: NoticeData }>({ target, name, error }, { status: 400 });

const success = (description: string) =>
  redirectWithToast("/admin/categories", { type: "success", title: "Éxito", description });

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const rawName = String(formData.get("name") ?? "");

  if (intent === "create") {
    const name = categoryNameSchema.safeParse(rawName);
    if (!name.success) return refuse("create", rawName, name.error.issues[0]!.message);
    const result = await createCategory(db, name.data);
    if (!result.ok) return refuse("create", rawName, result.message);
    return success("Categoría creada");
  }

  const id = idFrom(formData.get("categoryId"));
  if (id === null) {
    return data<ActionData | { notice: NoticeData }>(
      { notice: { tone: "error", title: "Error", message: "Categoría no encontrada." } },
      { status: 400 },
    );
  }
  if (intent === "rename") {
    const name = categoryNameSchema.safeParse(rawName);
    if (!name.success) return refuse(id, rawName, name.error.issues[0]!.message);
    const result = await renameCategory(db, { id, name: name.data });
    if (!result.ok) return refuse(id, rawName, result.message);
    return success("Categoría renombrada");
  }
  if (intent === "active") {
    const active = formData.get("active") === "1";
    if (!(await setCategoryActive(db, { id, active }))) {
      return data<ActionData | { notice: NoticeData }>(
        { notice: { tone: "error", title: "Error", message: "Categoría no encontrada." } },
        { status: 400 },
      );
    }
    return success(active ? "Categoría activada" : "Categoría desactivada");
  }
  return data<ActionData | { notice: NoticeData }>(
    { notice: { tone: "error", title: "Error", message: "Acción no reconocida." } },
    { status: 400 },
  );
}

export default function AdminCategories() {
  const { categories } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refused = actionData && "target" in actionData ? actionData : null;
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const createError = refused?.target === "create" ? refused.error : null;
  return (
    <div className="max-w-3xl">
      <Link to="/admin/products" className="btn-link text-sm">
        ← Volver a productos
      </Link>
      <h1 className="page-title mt-2">Categorías</h1>
      <p className="mt-1 text-slate-700">
        Las categorías activas aparecen como filtros en el catálogo. Al desactivar una categoría,
        sus productos dejan de mostrarse en la página de inicio.
      </p>
      {notice ? <Notice notice={notice} /> : null}

      <section aria-labelledby="nueva-categoria" className="card mt-6">
        <h2 id="nueva-categoria" className="text-lg font-semibold">
          Nueva categoría
        </h2>
        <Form method="post" className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-start">
          <input type="hidden" name="intent" value="create" />
          <div className="flex-1">
            <label htmlFor="category-new" className="sr-only">
              Nombre de la nueva categoría
            </label>
            <input
              key={createError ? "refused" : "fresh"}
              id="category-new"
              name="name"
              type="text"
              required
              maxLength={80}
              placeholder="Nombre de la categoría"
              defaultValue={refused?.target === "create" ? refused.name : ""}
              aria-invalid={createError ? true : undefined}
              aria-describedby={createError ? "category-new-error" : undefined}
              className="input"
            />
            <FieldErrors id="category-new-error" errors={createError ? [createError] : null} />
          </div>
          <button type="submit" className="btn-primary">
            Crear categoría
          </button>
        </Form>
      </section>

      <section aria-labelledby="lista-categorias" className="mt-6">
        <h2 id="lista-categorias" className="text-lg font-semibold">
          {categories.length} {categories.length === 1 ? "categoría" : "categorías"}
        </h2>
        {categories.length === 0 ? (
          <div className="mt-3">
            <EmptyState title="Aún no hay categorías" />
          </div>
        ) : (
          <ul className="mt-3 space-y-3">
            {categories.map((c) => {
              const error = refused?.target === c.id ? refused.error : null;
              return (
                <li key={c.id} className="card" data-testid={`category-${c.id}`}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="font-semibold text-slate-900">
                      {c.name}{" "}
                      <span className="text-sm font-normal text-slate-600">
                        · {c.products} {c.products === 1 ? "producto" : "productos"}
                      </span>
                    </p>
                    {c.is_active ? (
                      <Badge tone="green">Activa</Badge>
                    ) : (
                      <Badge tone="gray">Inactiva</Badge>
                    )}
                  </div>
                  <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-start">
                    <Form method="post" className="flex flex-1 flex-col gap-2 sm:flex-row">
                      <input type="hidden" name="intent" value="rename" />
                      <input type="hidden" name="categoryId" value={c.id} />
                      <div className="flex-1">
                        <label htmlFor={`category-${c.id}-name`} className="sr-only">
                          Nuevo nombre para {c.name}
                        </label>
                        <input
                          key={`${c.name}-${error ? "refused" : "fresh"}`}
                          id={`category-${c.id}-name`}
                          name="name"
                          type="text"
                          required
                          maxLength={80}
                          defaultValue={error ? refused!.name : c.name}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `category-${c.id}-error` : undefined}
                          className="input"
                        />
                        <FieldErrors
                          id={`category-${c.id}-error`}
                          errors={error ? [error] : null}
                        />
                      </div>
                      <button
                        type="submit"
                        className="btn-secondary"
                        aria-label={`Renombrar ${c.name}`}
                      >
                        Renombrar
                      </button>
                    </Form>
                    <Form method="post">
                      <input type="hidden" name="intent" value="active" />
                      <input type="hidden" name="categoryId" value={c.id} />
                      <input type="hidden" name="active" value={c.is_active ? "0" : "1"} />
                      <button
                        type="submit"
                        className="btn-secondary w-full"
                        aria-label={`${c.is_active ? "Desactivar" : "Activar"} ${c.name}`}
                      >
                        {c.is_active ? "Desactivar" : "Activar"}
                      </button>
                    </Form>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
