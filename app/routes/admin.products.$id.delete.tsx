import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { deleteProduct, getProductForAdmin } from "~/models/product.server";
import { requireRole } from "~/models/auth.server";
import { db } from "~/services/db.server";
import { readForm } from "~/services/form.server";
import { notFound, redirectWithToast } from "~/services/respond.server";
import { deleteStoredFile } from "~/services/storage.server";
import { idFrom } from "~/utils/ids";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Eliminar producto · Administración · CotizaHub",
    "Confirma la eliminación de un producto del catálogo.",
  );

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const id = idFrom(params.id);
  const product = id ? await getProductForAdmin(db, id) : undefined;
  if (!product) throw notFound();
  return { product: { id: product.id, name: product.name, sku: product.sku } };
}

/** A confirmation page (not a script dialog), so deleting works without JavaScript. */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  const id = idFrom(params.id);
  // The form has no fields: the body is read (and capped) like every other and ignored.
  await readForm(request);
  const deleted = id ? await deleteProduct(db, id) : null;
  if (!deleted?.ok) {
    return redirectWithToast(paths.admin.products(), {
      type: "error",
      title: "Error",
      description: "No se pudo eliminar el producto",
    });
  }
  // The row is gone first, so no product ever points to a missing image.
  await deleteStoredFile(deleted.value.imageKey);
  return redirectWithToast(paths.admin.products(), {
    type: "success",
    title: "Éxito",
    description: "Producto eliminado",
  });
}

export default function DeleteProduct() {
  const { product } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-xl">
      <h1 className="page-title">Eliminar producto</h1>
      <div className="card mt-6">
        <p className="text-lg font-semibold text-slate-900">
          ¿Estás seguro de que quieres eliminar este producto?
        </p>
        <p className="mt-2 text-slate-700">
          <span className="font-medium">{product.name}</span>
          {product.sku ? ` (SKU ${product.sku})` : null} dejará de aparecer en el catálogo. Esta
          acción no se puede deshacer.
        </p>
        <Form method="post" className="mt-6 flex flex-wrap gap-3">
          <button type="submit" className="btn-danger">
            Sí, eliminar producto
          </button>
          <Link to={paths.admin.product(product.id)} className="btn-secondary">
            Cancelar
          </Link>
        </Form>
      </div>
    </div>
  );
}
