import { readUploadForm } from "./form.server";
import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import { FILE_RULES } from "~/domain/files";
import { productSchema, type ProductImage } from "~/domain/product";
import { commitStagedFile, discardStagedFile, deleteStoredFile } from "./storage.server";

/**
 * Reads the product form (multipart, optional image) and runs `save` with the checked values and
 * the committed image. Any refusal answers 400 with the typed values and Spanish messages; a
 * committed image whose row was not written is deleted again.
 */
export async function handleProductForm(
  request: Request,
  save: (
    value: ReturnType<typeof productSchema.parse>,
    image: ProductImage | null,
  ) => Promise<
    | { ok: true; replacedImageKey: string | null }
    | { ok: false; fieldErrors: Record<string, string[]> }
  >,
) {
  const { formData, file, fileError } = await readUploadForm(
    request,
    "image",
    FILE_RULES.productImage,
  );
  const submission = parseWithZod(formData, { schema: productSchema });
  if (submission.status !== "success" || fileError) {
    await discardStagedFile(file);
    return {
      response: data(
        { result: submission.reply(fileError ? { fieldErrors: { image: [fileError] } } : {}) },
        { status: 400 },
      ),
    };
  }
  const image = file ? { key: await commitStagedFile(file), type: file.mime } : null;
  let result;
  try {
    result = await save(submission.value, image);
  } catch (error) {
    await deleteStoredFile(image?.key);
    throw error;
  }
  if (!result.ok) {
    await deleteStoredFile(image?.key);
    return {
      response: data(
        { result: submission.reply({ fieldErrors: result.fieldErrors }) },
        { status: 400 },
      ),
    };
  }
  await deleteStoredFile(result.replacedImageKey);
  return { response: null };
}
