import { Link } from "~/components/ui/Link";
import { paths } from "~/utils/paths";

export function Footer() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
        {/* The year where the page is read; a page rendered on 31 December may hydrate on 1 January. */}
        <p suppressHydrationWarning>
          © {new Date().getFullYear()} CotizaHub. Todos los derechos reservados.
        </p>
        <nav aria-label="Enlaces legales" className="flex gap-4">
          <Link to={paths.privacy()} className="hover:underline">
            Privacidad
          </Link>
          <Link to={paths.terms()} className="hover:underline">
            Términos
          </Link>
          <Link to={paths.contact()} className="hover:underline">
            Contacto
          </Link>
        </nav>
      </div>
    </footer>
  );
}
