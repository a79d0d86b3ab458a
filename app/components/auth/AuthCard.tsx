import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

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
      <Link to="/" className="btn-link text-sm">
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
