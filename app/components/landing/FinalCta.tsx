import { Link } from "~/components/ui/Link";
import { paths } from "~/utils/paths";

export function FinalCta() {
  return (
    <section aria-labelledby="cta-titulo" className="px-4 pb-4">
      <div className="mx-auto max-w-5xl rounded-2xl bg-brand-900 px-6 py-12 text-center text-white sm:px-12">
        <h2 id="cta-titulo" className="text-2xl font-bold sm:text-3xl">
          ¿Listo para recibir tus primeras cotizaciones?
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-brand-50">
          Crea tu cuenta gratis en minutos o cuéntanos qué necesita tu empresa y te ayudamos a
          empezar.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link
            to={paths.signUp()}
            className="btn bg-white px-6 py-3 text-base text-brand-900 hover:bg-brand-50"
          >
            Crear cuenta gratis
          </Link>
          <Link
            to={paths.contact()}
            className="btn border border-white px-6 py-3 text-base text-white hover:bg-brand-800"
          >
            Contactar a ventas
          </Link>
        </div>
      </div>
    </section>
  );
}
