import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { Field, FieldErrors, FormAlert, TextAreaField } from "~/components/ui/Field";
import { acceptAttribute, FILE_RULES } from "~/domain/files";
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

/**
 * The product form (new and edit). A plain multipart POST: works without JavaScript; the server
 * validates and answers with the typed values and Spanish messages.
 */
export function ProductForm({
  lastResult,
  defaults,
  categories,
  suppliers,
  submitLabel,
  imageUrl,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  defaults: ProductFormDefaults;
  categories: { id: number; name: string; is_active: number }[];
  suppliers: { id: number; name: string }[];
  submitLabel: string;
  imageUrl?: string | null;
}) {
  const form = serverForm(lastResult);
  // After a refused submission the fields show what was typed; before it, the stored product.
  const submitted = lastResult?.status === "error";
  const value = (name: Exclude<keyof ProductFormDefaults, "is_active">) =>
    submitted ? (form.field(name).defaultValue ?? "") : defaults[name];
  const checked = submitted ? form.field("is_active").defaultValue === "on" : defaults.is_active;
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
        <Field
          label="Nombre"
          name="name"
          id="field-name"
          type="text"
          defaultValue={value("name")}
          required
          maxLength={160}
          errors={form.field("name").errors}
        />
      </div>
      <Field
        label="SKU (opcional)"
        name="sku"
        id="field-sku"
        type="text"
        defaultValue={value("sku")}
        maxLength={80}
        errors={form.field("sku").errors}
      />
      <div>
        <label htmlFor="field-category_id" className="label">
          Categoría (opcional)
        </label>
        <select
          id="field-category_id"
          name="category_id"
          defaultValue={value("category_id")}
          className="input"
          aria-describedby={
            form.field("category_id").errors ? "field-category_id-error" : undefined
          }
        >
          <option value="">Sin categoría</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
              {c.is_active ? "" : " (inactiva)"}
            </option>
          ))}
        </select>
        <FieldErrors id="field-category_id-error" errors={form.field("category_id").errors} />
      </div>
      <div className="sm:col-span-2">
        <TextAreaField
          label="Descripción (opcional)"
          name="description"
          id="field-description"
          defaultValue={value("description")}
          rows={4}
          maxLength={5000}
          errors={form.field("description").errors}
        />
      </div>
      <Field
        label="Precio base (opcional)"
        name="base_price"
        id="field-base_price"
        type="text"
        defaultValue={value("base_price")}
        inputMode="decimal"
        placeholder="1234,50"
        hint="Usa punto o coma para los decimales. Déjalo vacío si el precio se cotiza."
        errors={form.field("base_price").errors}
      />
      <Field
        label="Existencia"
        name="stock_quantity"
        id="field-stock_quantity"
        type="text"
        defaultValue={value("stock_quantity")}
        inputMode="numeric"
        hint="Número entero de unidades (0 si no hay)."
        errors={form.field("stock_quantity").errors}
      />
      <div>
        <label htmlFor="field-supplier_id" className="label">
          Proveedor (opcional)
        </label>
        <select
          id="field-supplier_id"
          name="supplier_id"
          defaultValue={value("supplier_id")}
          className="input"
          aria-describedby={
            form.field("supplier_id").errors ? "field-supplier_id-error" : undefined
          }
        >
          <option value="">Sin proveedor</option>
          {suppliers.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        <FieldErrors id="field-supplier_id-error" errors={form.field("supplier_id").errors} />
      </div>
      <div>
        <label htmlFor="field-image" className="label">
          Imagen (opcional)
        </label>
        <input
          id="field-image"
          name="image"
          type="file"
          accept={acceptAttribute(FILE_RULES.productImage)}
          className="block w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-semibold"
          aria-describedby={`field-image-hint${form.field("image").errors ? " field-image-error" : ""}`}
          aria-invalid={form.field("image").errors ? true : undefined}
        />
        <p id="field-image-hint" className="mt-1 text-xs text-slate-600">
          PNG, JPG o WEBP de hasta 2 MB.
        </p>
        <FieldErrors id="field-image-error" errors={form.field("image").errors} />
      </div>
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
