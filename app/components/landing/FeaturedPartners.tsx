import { Link } from "~/components/ui/Link";
import { FiveStars, Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";
import { paths } from "~/utils/paths";

interface FeaturedPartnerView {
  id: number;
  name: string;
}

/** SPEC §2: up to five featured partners, or an invitation to become one. */
export function FeaturedPartners({ partners }: { partners: FeaturedPartnerView[] }) {
  return (
    <section aria-labelledby="socios-titulo" className="mx-auto max-w-7xl px-4 py-16">
      <SectionHeading
        id="socios-titulo"
        eyebrow="Socios destacados"
        title="Proveedores que marcan la diferencia"
      >
        Empresas verificadas que cotizan con rapidez y cumplen lo que prometen.
      </SectionHeading>
      {partners.length > 0 ? (
        <ul className="mt-10 flex flex-wrap justify-center gap-4">
          {partners.map((partner) => (
            <li
              key={partner.id}
              className="card flex w-full flex-col items-center text-center sm:w-56"
              data-testid="featured-partner"
            >
              <span
                aria-hidden="true"
                className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-700 text-xl font-bold text-white"
              >
                {partner.name.charAt(0).toUpperCase()}
              </span>
              <h3 className="mt-3 wrap-anywhere font-semibold text-slate-900">{partner.name}</h3>
              <p className="mt-1 inline-flex items-center gap-1 text-sm font-medium text-green-800">
                <Icon name="shield" className="h-4 w-4" />
                Socio Verificado
              </p>
              <div className="mt-2">
                <FiveStars />
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <div className="mx-auto mt-10 max-w-lg rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
          <p className="font-semibold text-slate-800">Próximamente tendremos socios destacados</p>
          <p className="mt-1 text-sm text-slate-700">
            ¿Eres proveedor? Únete a nuestra red de socios verificados.
          </p>
          <Link to={paths.signUp()} className="btn-primary mt-5">
            Convertirse en Socio
          </Link>
        </div>
      )}
    </section>
  );
}
