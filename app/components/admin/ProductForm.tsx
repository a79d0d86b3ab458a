import type { SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import {
  Field,
  FileField,
  FormAlert,
  NumberField,
  SelectField,
  TextAreaField,
} from "~/components/ui/Field";
import type { ReactNode } from "react";
import { unpackOptions } from "~/domain/admin-lists";
import { FILE_RULES } from "~/domain/files";
import type { ProductFormDefaults } from "~/domain/product";
import { serverForm } from "~/utils/server-form";
import { paths } from "~/utils/paths";

export const EMPTY_PRODUCT: ProductFormDefaults = {
  name: "",
  sku: "",
  description: "",
  category_id: "",
  supplier_id: "",
  base_price: "",
  stock_quantity: "0",
  is_active: true,
};

type ProductFormProps = {
  lastResult: SubmissionResult<string[]> | undefined;
  defaults: ProductFormDefaults;
  categories: { id: number; name: string; is_active: number }[];
  /** The partners that can supply a product, packed (packOptions) to keep the page small. */
  suppliers: string;
  submitLabel: string;
  imageUrl?: string | null;
};

/** The new and edit product pages: back to the list, the page's heading, then the form. */
export function ProductFormPage({ heading, ...form }: ProductFormProps & { heading: ReactNode }) {
  return (
    <div className="max-w-3xl">
      <Link to={paths.admin.products()} className="btn-link text-sm">
        ← Volver a productos
      </Link>
      {heading}
      <ProductForm {...form} />
    </div>
  );
}

/**
 * The product form (new and edit). A plain multipart POST: works without JavaScript; the server
 * validates and answers with the typed values and Spanish messages.
 */
function ProductForm({
  lastResult,
  defaults,
  categories,
  suppliers,
  submitLabel,
  imageUrl,
}: ProductFormProps) {
  const { is_active, edited_from, ...text } = defaults;
  const form = serverForm(lastResult, text);
  // After a refused submission the box shows what was sent; before it, the stored product.
  const checked =
    lastResult?.status === "error" ? form.field("is_active").defaultValue === "on" : is_active;
  const busy = useNavigation().state === "submitting";
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      noValidate
      className="card mt-6 grid gap-4 sm:grid-cols-2"
    >
      {lastResult?.status === "error" ? (
        <div className="sm:col-span-2">
          <FormAlert title="No se pudo guardar el producto">
            {form.formErrors?.length ? form.formErrors.join(" ") : "Revisa los campos marcados."}
          </FormAlert>
        </div>
      ) : null}
      <div className="sm:col-span-2">
        <Field label="Nombre" {...form.field("name")} type="text" required maxLength={160} />
      </div>
      <Field label="SKU (opcional)" {...form.field("sku")} type="text" maxLength={80} />
      <SelectField label="Categoría (opcional)" {...form.field("category_id")}>
        <option value="">Sin categoría</option>
        {categories.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
            {c.is_active ? "" : " (inactiva)"}
          </option>
        ))}
      </SelectField>
      <div className="sm:col-span-2">
        <TextAreaField
          label="Descripción (opcional)"
          {...form.field("description")}
          rows={4}
          maxLength={5000}
        />
      </div>
      <NumberField
        label="Precio base (opcional)"
        {...form.field("base_price")}
        decimal
        placeholder="1234,50"
        hint="Usa punto o coma para los decimales. Déjalo vacío si el precio se cotiza."
      />
      <NumberField
        label="Existencia"
        {...form.field("stock_quantity")}
        hint="Número entero de unidades (0 si no hay)."
      />
      <SelectField label="Proveedor (opcional)" {...form.field("supplier_id")}>
        <option value="">Sin proveedor</option>
        {unpackOptions(suppliers).map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </SelectField>
      <FileField
        label="Imagen (opcional)"
        {...form.field("image")}
        rule={FILE_RULES.productImage}
        hint="PNG, JPG o WEBP de hasta 2 MB."
      />
      {imageUrl ? (
        <div className="flex items-center gap-4 sm:col-span-2">
          <img
            src={imageUrl}
            alt="Imagen actual del producto"
            className="h-20 w-20 rounded-md border border-slate-200 object-cover"
          />
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" name="remove_image" value="on" className="h-4 w-4" />
            Quitar la imagen actual
          </label>
        </div>
      ) : null}
      <div className="sm:col-span-2">
        <input type="hidden" name="is_active_shown" value="1" />
        {edited_from ? <input type="hidden" name="edited_from" value={edited_from} /> : null}
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <input type="checkbox" name="is_active" defaultChecked={checked} className="h-4 w-4" />
          Producto activo (visible en el catálogo)
        </label>
      </div>
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Guardando…" : submitLabel}
        </button>
        <Link to={paths.admin.products()} className="btn-secondary">
          Cancelar
        </Link>
      </div>
    </Form>
  );
}
