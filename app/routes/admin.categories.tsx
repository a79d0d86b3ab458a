import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { Badge } from "~/components/ui/Badge";
import { BackLink } from "~/components/ui/BackLink";
import { EmptyState } from "~/components/ui/EmptyState";
import { Field, FormErrors } from "~/components/ui/Field";
import { categoryNameSchema } from "~/domain/product";
import { idField } from "~/domain/validation";
import {
  createCategory,
  listCategoriesForAdmin,
  renameCategory,
  setCategoryActive,
} from "~/models/category.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { invalidForm, respond } from "~/services/respond.server";
import { paths } from "~/utils/paths";
import { serverForm } from "~/utils/server-form";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta("Categorías · Administración · CotizaHub", "Categorías del catálogo de productos.");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { categories: await listCategoriesForAdmin(db) };
}

// A factory, not a constant, so zod stays out of the browser bundle (only the action calls it).
function schema() {
  const categoryId = idField("Categoría no encontrada.");
  return z.discriminatedUnion(
    "intent",
    [
      z.object({ intent: z.literal("create"), name: categoryNameSchema }),
      z.object({ intent: z.literal("rename"), categoryId, name: categoryNameSchema }),
      z.object({
        intent: z.literal("active"),
        categoryId,
        active: z.enum(["0", "1"]).transform((v) => v === "1"),
      }),
    ],
    { errorMap: () => ({ message: "Acción no reconocida." }) },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  const submission = parseWithZod(await readForm(request), { schema: schema() });
  if (submission.status !== "success") return invalidForm(submission);
  const input = submission.value;
  const result =
    input.intent === "create"
      ? await createCategory(db, input.name)
      : input.intent === "rename"
        ? await renameCategory(db, { id: input.categoryId, name: input.name })
        : await setCategoryActive(db, { id: input.categoryId, active: input.active });
  const done = {
    create: "Categoría creada",
    rename: "Categoría renombrada",
    active:
      input.intent === "active" && input.active ? "Categoría activada" : "Categoría desactivada",
  }[input.intent];
  return respond(result, submission, () => ({
    to: paths.admin.categories(),
    toast: { type: "success", title: "Éxito", description: done },
  }));
}

export default function AdminCategories() {
  const { categories } = useLoaderData<typeof loader>();
  const location = useLocation();
  const form = serverForm(useActionData<typeof action>()?.result);
  // Which form was refused: "create", or the id of the renamed category.
  const refused =
    form.field("intent").defaultValue === "create"
      ? "create"
      : form.field("categoryId").defaultValue;
  const nameField = (target: string, fallback: string) => ({
    ...form.field("name"),
    defaultValue: refused === target ? form.field("name").defaultValue : fallback,
    errors: refused === target ? form.field("name").errors : undefined,
  });
  return (
    <div className="max-w-3xl">
      <BackLink to={paths.admin.products()}>Volver a productos</BackLink>
      <h1 className="page-title mt-2">Categorías</h1>
      <p className="mt-1 text-slate-700">
        Las categorías activas aparecen como filtros en el catálogo. Al desactivar una categoría,
        sus productos dejan de mostrarse en la página de inicio.
      </p>
      <div className="mt-4">
        <FormErrors errors={form.formErrors ?? form.field("categoryId").errors} />
      </div>

      <section aria-labelledby="nueva-categoria" className="card mt-6">
        <h2 id="nueva-categoria" className="text-lg font-semibold">
          Nueva categoría
        </h2>
        {/* Keyed by the page: after «Categoría creada» the name field starts empty. */}
        <Form
          key={location.key}
          method="post"
          className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-start"
        >
          <input type="hidden" name="intent" value="create" />
          <div className="flex-1">
            <Field
              key={refused === "create" ? "refused" : "fresh"}
              label="Nombre de la nueva categoría"
              hideLabel
              {...nameField("create", "")}
              id="category-new"
              type="text"
              required
              maxLength={80}
              placeholder="Nombre de la categoría"
            />
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
              const name = nameField(String(c.id), c.name);
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
                        <Field
                          key={`${c.name}-${name.errors ? "refused" : "fresh"}`}
                          label={`Nuevo nombre para ${c.name}`}
                          hideLabel
                          {...name}
                          id={`category-${c.id}-name`}
                          type="text"
                          required
                          maxLength={80}
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
