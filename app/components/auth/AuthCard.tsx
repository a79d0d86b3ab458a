import { NavLink } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { FormAlert } from "~/components/ui/Field";
import { paths } from "~/utils/paths";

/** The centred card every /auth page uses, with its back-to-home link. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <Link to={paths.home()} className="btn-link text-sm">
        ← Volver al inicio
      </Link>
      <div className="card mt-4">
        <h1 className="text-2xl font-bold">{title}</h1>
        {subtitle ? <p className="mt-1 text-sm text-slate-700">{subtitle}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

/** Public forms carry this field; people never see it, bots fill it in. */
export function Honeypot() {
  return (
    <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="true">
      <label htmlFor="website">No completar este campo</label>
      <input id="website" name="website" type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}

/** Sign-in (/auth) and sign-up (/auth/signup) as two tabs of one card. */
export function AuthTabs({ redirectTo }: { redirectTo?: string }) {
  const tab = (to: string, label: string) => (
    <NavLink
      to={to}
      end
      className={({ isActive }) =>
        `rounded-md py-2 ${isActive ? "bg-white text-brand-800 shadow" : "text-slate-700"}`
      }
    >
      {label}
    </NavLink>
  );
  return (
    <nav
      aria-label="Acceso"
      className="mb-6 grid grid-cols-2 rounded-lg bg-slate-100 p-1 text-center text-sm font-semibold"
    >
      {tab(paths.signIn(redirectTo), "Iniciar Sesión")}
      {tab(paths.signUp(), "Registrarse")}
    </nav>
  );
}

/** SPEC §8: an unexpected failure while signing in or up. */
export function AuthErrorBoundary() {
  return (
    <GeneralErrorBoundary
      unexpectedErrorHandler={() => (
        <AuthCard title="Ocurrió un error">
          <FormAlert title="Ocurrió un error">Por favor intenta de nuevo más tarde.</FormAlert>
          <Link to={paths.signIn()} className="btn-primary mt-4 w-full">
            Volver a intentar
          </Link>
        </AuthCard>
      )}
    />
  );
}
