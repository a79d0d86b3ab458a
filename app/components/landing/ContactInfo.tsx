import type { ReactNode } from "react";
import { Icon, type IconName } from "./Icon";

function InfoCard({
  id,
  title,
  icon,
  children,
}: {
  id: string;
  title: string;
  icon: IconName;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="card">
      <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Icon name={icon} className="h-5 w-5 text-brand-700" />
        {title}
      </h2>
      <div className="mt-3 text-sm text-slate-700">{children}</div>
    </section>
  );
}

/** The static side column of /contact (SPEC §2): contact details, office hours, enterprise sales. */
export function ContactInfo() {
  return (
    <div className="space-y-6">
      <InfoCard id="info-contacto" title="Información de contacto" icon="mail">
        <ul className="space-y-3">
          <li className="flex gap-2">
            <Icon name="mail" className="h-5 w-5 shrink-0 text-slate-600" />
            <a href="mailto:contacto@cotizahub.com" className="btn-link break-all">
              contacto@cotizahub.com
            </a>
          </li>
          <li className="flex gap-2">
            <Icon name="phone" className="h-5 w-5 shrink-0 text-slate-600" />
            <a href="tel:+13055550100" className="btn-link">
              +1 (305) 555-0100
            </a>
          </li>
          <li className="flex gap-2">
            <Icon name="pin" className="h-5 w-5 shrink-0 text-slate-600" />
            <span>Brickell Ave, Miami, FL, Estados Unidos</span>
          </li>
        </ul>
        <p className="mt-3">Respondemos todos los mensajes en menos de 24 horas.</p>
      </InfoCard>
      <InfoCard id="info-horario" title="Horario de atención" icon="clock">
        <dl className="space-y-2">
          <div className="flex justify-between gap-4">
            <dt>Lunes a Viernes</dt>
            <dd className="font-semibold text-slate-900">9:00 - 18:00 EST</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt>Sábado</dt>
            <dd className="font-semibold text-slate-900">10:00 - 14:00 EST</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt>Domingo</dt>
            <dd className="font-semibold text-slate-900">Cerrado</dd>
          </div>
        </dl>
      </InfoCard>
      <InfoCard id="info-ventas" title="Ventas empresariales" icon="briefcase">
        <p>
          ¿Compras de gran volumen, licitaciones de gobierno o contratos marco? Nuestro equipo de
          ventas empresariales diseña un plan a la medida de tu organización.
        </p>
        <p className="mt-3">
          <a href="mailto:ventas@cotizahub.com" className="btn-link break-all">
            ventas@cotizahub.com
          </a>
        </p>
      </InfoCard>
    </div>
  );
}
