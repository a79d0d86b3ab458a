import type { LoaderFunctionArgs } from "@remix-run/node";
import { verifyEmail } from "~/models/account.server";
import { db } from "~/services/db.server";
import { redirectWithToast } from "~/services/respond.server";
import { paths } from "~/utils/paths";

/**
 * The link in the verification e-mail. It verifies and lands on "/" (DECISIONS §3): a deliberate,
 * idempotent exception to "no GET changes anything", guarded by a single-use 256-bit token
 * (docs/decisions/005-email-verification-link.md).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const verified = token ? await verifyEmail(db, token) : false;
  if (verified) {
    return redirectWithToast(paths.home(), {
      type: "success",
      title: "¡Correo verificado!",
      description: "Tu cuenta está activa. Ya puedes iniciar sesión.",
    });
  }
  return redirectWithToast(paths.signIn(), {
    type: "error",
    title: "Enlace inválido o vencido",
    description:
      "El enlace de verificación ya fue usado o venció. Inicia sesión para solicitar uno nuevo.",
  });
}
