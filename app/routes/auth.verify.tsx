import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { AuthCard } from "~/components/auth/AuthCard";
import { Link } from "~/components/ui/Link";
import { verifyEmail } from "~/models/account.server";
import { db } from "~/services/db.server";
import { redirectWithToast } from "~/services/respond.server";
import { pageMeta } from "~/utils/meta";
import { paths } from "~/utils/paths";

export const meta: MetaFunction = () =>
  pageMeta(
    "Correo ya verificado · CotizaHub",
    "Tu correo ya está verificado: inicia sesión en CotizaHub.",
  );

/**
 * The link in the verification e-mail. It verifies and lands on "/" (DECISIONS §3): a deliberate,
 * idempotent exception to "no GET changes anything", guarded by a single-use 256-bit token
 * (docs/decisions/0004-email-verification-by-get.md). Opened again once its account is verified,
 * it says so and offers to sign in, instead of calling a link that did its job invalid.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const outcome = token ? await verifyEmail(db, token) : "invalid";
  if (outcome === "verified") {
    return redirectWithToast(paths.home(), {
      type: "success",
      title: "¡Correo verificado!",
      description: "Tu cuenta está activa. Ya puedes iniciar sesión.",
    });
  }
  if (outcome === "already-verified") return null;
  return redirectWithToast(paths.signIn(), {
    type: "error",
    title: "Enlace inválido o vencido",
    description:
      "El enlace de verificación ya fue usado o venció. Inicia sesión para solicitar uno nuevo.",
  });
}

export default function EmailAlreadyVerified() {
  return (
    <AuthCard title="Tu correo ya está verificado">
      <p role="status" className="text-slate-700">
        Tu cuenta ya está activa: no hace falta volver a abrir este enlace. Inicia sesión con tu
        correo y tu contraseña.
      </p>
      <Link to={paths.signIn()} className="btn-primary mt-6 w-full">
        Iniciar sesión
      </Link>
    </AuthCard>
  );
}
