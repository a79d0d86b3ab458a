import { parseWithZod } from "@conform-to/zod";
import { FILE_RULES } from "~/domain/files";
import { productSchema, type ProductFormValue, type ProductImage } from "~/domain/product";
import type { Result } from "~/domain/result";
import { withUpload } from "~/domain/validation";
import { readUploadForm } from "./form.server";
import { invalidForm, respond } from "./respond.server";
import { discardStagedFile, storeUpload } from "./storage.server";
import { paths } from "~/utils/paths";

/**
 * The product form's action (new and edit): multipart with an optional image, checked like every
 * form; `save` writes the row with the stored image, which is deleted again if the row is not
 * written (and the replaced image once it is).
 */
export async function productAction(
  request: Request,
  save: (
    value: ProductFormValue,
    image: ProductImage | null,
  ) => Promise<Result<{ id: number; replacedImageKey: string | null }>>,
  done: string,
) {
  const upload = await readUploadForm(request, "image", FILE_RULES.productImage);
  const submission = parseWithZod(upload.formData, {
    schema: withUpload(productSchema, "image", upload),
  });
  if (submission.status !== "success") {
    await discardStagedFile(upload.file);
    return invalidForm(submission);
  }
  const value = submission.value;
  const result = await storeUpload(
    upload.file,
    (file) => save(value, file && { key: file.key, type: file.type }),
    { replaced: (saved) => saved.replacedImageKey },
  );
  return respond(result, submission, () => ({
    to: paths.admin.products(),
    toast: { type: "success", title: "Éxito", description: done },
  }));
}
