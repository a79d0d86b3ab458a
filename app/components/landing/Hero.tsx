import { Link } from "~/components/ui/Link";
import { Icon } from "./Icon";
import { paths } from "~/utils/paths";

const HIGHLIGHTS = [
  "Cotizaciones de socios verificados en 24-48 horas",
  "Una cotización oficial consolidada, en PDF",
  "Pagos validados y rastreados con total transparencia",
  "Puntos de lealtad en cada compra completada",
];

export function Hero() {
  return (
    <section aria-labelledby="hero-titulo" className="bg-brand-900 text-white">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-16 sm:py-20 lg:grid-cols-5 lg:items-center">
        <div className="lg:col-span-3">
          <p className="inline-flex items-center gap-2 rounded-full bg-brand-800 px-3 py-1 text-sm font-medium text-brand-50">
            <Icon name="clock" className="h-4 w-4" />
            Respuesta en 24-48 horas
          </p>
          <h1 id="hero-titulo" className="mt-5 text-3xl font-extrabold tracking-tight sm:text-5xl">
            Cotizaciones B2B rápidas, verificadas y sin complicaciones
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-brand-50">
            Sube tus requerimientos una sola vez y recibe múltiples cotizaciones de proveedores
            verificados. Nosotros comparamos, consolidamos y acompañamos cada pago hasta el final.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link
              to={paths.signUp()}
              className="btn bg-white px-6 py-3 text-base text-brand-900 hover:bg-brand-50"
            >
              Comenzar gratis
            </Link>
            <Link
              to={paths.signIn()}
              className="btn border border-white px-6 py-3 text-base text-white hover:bg-brand-800"
            >
              Iniciar Sesión
            </Link>
          </div>
        </div>
        <ul className="space-y-3 rounded-xl bg-brand-800 p-6 lg:col-span-2">
          {HIGHLIGHTS.map((text) => (
            <li key={text} className="flex gap-3">
              <span className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-white text-brand-800">
                <Icon name="check" className="h-4 w-4" />
              </span>
              <span>{text}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
