import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { Field, FieldErrors, FormAlert, TextAreaField } from "~/components/ui/Field";
import { acceptAttribute, FILE_RULES } from "~/domain/files";

export interface ProductFormDefaults {
  name: string;
  sku: string;
  description: string;
  category_id: string;
  supplier_id: string;
  base_price: string;
  stock_quantity: string;
  is_active: boolean;
}

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
  const [form, fields] = useForm<
    Omit<ProductFormDefaults, "is_active"> & { is_active?: string; image?: string }
  >({
    id: "product",
    lastResult,
    defaultValue: { ...defaults, is_active: defaults.is_active ? "on" : undefined },
  });
  const busy = useNavigation().state === "submitting";
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="card mt-6 grid gap-4 sm:grid-cols-2"
    >
      {lastResult?.status === "error" ? (
        <div className="sm:col-span-2">
          <FormAlert title="No se pudo guardar el producto">
            {form.errors?.length ? form.errors.join(" ") : "Revisa los campos marcados."}
          </FormAlert>
        </div>
      ) : null}
      <div className="sm:col-span-2">
        <Field
          label="Nombre"
          {...getInputProps(fields.name, { type: "text" })}
          required
          maxLength={160}
          errors={fields.name.errors}
        />
      </div>
      <Field
        label="SKU (opcional)"
        {...getInputProps(fields.sku, { type: "text" })}
        maxLength={80}
        errors={fields.sku.errors}
      />
      <div>
        <label htmlFor={fields.category_id.id} className="label">
          Categoría (opcional)
        </label>
        <select
          {...getSelectProps(fields.category_id)}
          className="input"
          aria-describedby={fields.category_id.errors ? fields.category_id.errorId : undefined}
        >
          <option value="">Sin categoría</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
              {c.is_active ? "" : " (inactiva)"}
            </option>
          ))}
        </select>
        <FieldErrors id={fields.category_id.errorId} errors={fields.category_id.errors} />
      </div>
      <div className="sm:col-span-2">
        <TextAreaField
          label="Descripción (opcional)"
          {...getTextareaProps(fields.description)}
          rows={4}
          maxLength={5000}
          errors={fields.description.errors}
        />
      </div>
      <Field
        label="Precio base (opcional)"
        {...getInputProps(fields.base_price, { type: "text" })}
        inputMode="decimal"
        placeholder="1234,50"
        hint="Usa punto o coma para los decimales. Déjalo vacío si el precio se cotiza."
        errors={fields.base_price.errors}
      />
      <Field
        label="Existencia"
        {...getInputProps(fields.stock_quantity, { type: "text" })}
        inputMode="numeric"
        hint="Número entero de unidades (0 si no hay)."
        errors={fields.stock_quantity.errors}
      />
      <div>
        <label htmlFor={fields.supplier_id.id} className="label">
          Proveedor (opcional)
        </label>
        <select
          {...getSelectProps(fields.supplier_id)}
          className="input"
          aria-describedby={fields.supplier_id.errors ? fields.supplier_id.errorId : undefined}
        >
          <option value="">Sin proveedor</option>
          {suppliers.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        <FieldErrors id={fields.supplier_id.errorId} errors={fields.supplier_id.errors} />
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
          aria-describedby={`field-image-hint${fields.image.errors ? " field-image-error" : ""}`}
          aria-invalid={fields.image.errors ? true : undefined}
        />
        <p id="field-image-hint" className="mt-1 text-xs text-slate-600">
          PNG, JPG o WEBP de hasta 2 MB.
        </p>
        <FieldErrors id="field-image-error" errors={fields.image.errors} />
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
          <input {...getInputProps(fields.is_active, { type: "checkbox" })} className="h-4 w-4" />
          Producto activo (visible en el catálogo)
        </label>
      </div>
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Guardando…" : submitLabel}
        </button>
        <Link to="/admin/products" className="btn-secondary">
          Cancelar
        </Link>
      </div>
    </Form>
  );
}
