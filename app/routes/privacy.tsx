import type { MetaFunction } from "@remix-run/node";
import { Link } from "~/components/ui/Link";
import { LegalPage, type LegalSectionDef } from "~/components/landing/LegalPage";
import { contactSection } from "~/components/legal/ContactSection";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Política de Privacidad · CotizaHub",
    "Cómo CotizaHub recopila, usa, protege y conserva tus datos personales.",
  );

/** SPEC §9 retention periods. */
const RETENTION = [
  {
    data: "Datos de la cuenta",
    period: "Durante la vigencia de la cuenta y 7 años después de su cierre",
  },
  { data: "Registros de transacciones", period: "10 años" },
  { data: "Comunicaciones", period: "3 años" },
  { data: "Datos técnicos", period: "2 años" },
];

const SECTIONS: LegalSectionDef[] = [
  {
    id: "datos",
    title: "Información que recopilamos",
    body: (
      <ul>
        <li>
          <strong>Datos de la cuenta:</strong> nombre, apellido, correo electrónico, empresa,
          teléfono y tipo de cuenta (comprador o socio).
        </li>
        <li>
          <strong>Datos de operaciones:</strong> solicitudes de cotización, archivos de
          requerimientos, cotizaciones, comprobantes de pago e historial de estados.
        </li>
        <li>
          <strong>Comunicaciones:</strong> mensajes del formulario de contacto, notificaciones y
          correos que te enviamos.
        </li>
        <li>
          <strong>Datos técnicos:</strong> dirección IP, tipo de navegador y registros de acceso
          necesarios para la seguridad del servicio.
        </li>
      </ul>
    ),
  },
  {
    id: "uso",
    title: "Cómo usamos tu información",
    body: (
      <ul>
        <li>
          Prestar el servicio: gestionar solicitudes, asignarlas a socios y emitir cotizaciones
          oficiales.
        </li>
        <li>Verificar pagos, calcular comisiones y administrar el programa de lealtad.</li>
        <li>Enviarte notificaciones sobre tus operaciones y responder a tus consultas.</li>
        <li>Proteger la Plataforma frente a fraudes y accesos no autorizados.</li>
        <li>Cumplir obligaciones legales, contables y fiscales.</li>
      </ul>
    ),
  },
  {
    id: "compartir",
    title: "Con quién compartimos tus datos",
    body: (
      <>
        <p>
          No vendemos tus datos personales. Compartimos la información estrictamente necesaria con
          los participantes de cada operación: los socios asignados a una solicitud ven sus
          requerimientos y los datos de contacto del comprador, y el comprador ve las cotizaciones
          de los socios.
        </p>
        <p>
          También podemos compartir datos con proveedores que nos prestan servicios (por ejemplo,
          alojamiento y envío de correo) bajo obligaciones de confidencialidad, o con autoridades
          cuando la ley lo exija.
        </p>
      </>
    ),
  },
  {
    id: "seguridad",
    title: "Seguridad",
    body: (
      <p>
        Protegemos tu información con cifrado en tránsito, contraseñas almacenadas con funciones de
        hash, sesiones que caducan por inactividad y acceso a archivos restringido a las personas
        autorizadas. Ningún sistema es completamente infalible, por lo que te pedimos usar una
        contraseña única y segura.
      </p>
    ),
  },
  {
    id: "retencion",
    title: "Conservación de los datos",
    body: (
      <>
        <p>Conservamos cada tipo de dato solo durante el tiempo necesario:</p>
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">Plazos de conservación por tipo de dato</caption>
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-2 pr-4 font-semibold text-slate-900">
                  Tipo de dato
                </th>
                <th scope="col" className="py-2 font-semibold text-slate-900">
                  Plazo de conservación
                </th>
              </tr>
            </thead>
            <tbody>
              {RETENTION.map((row) => (
                <tr key={row.data} className="border-b border-slate-200">
                  <th scope="row" className="py-2 pr-4 font-medium text-slate-900">
                    {row.data}
                  </th>
                  <td className="py-2">{row.period}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>Al vencer estos plazos, los datos se eliminan o se anonimizan de forma irreversible.</p>
      </>
    ),
  },
  {
    id: "derechos",
    title: "Tus derechos",
    body: (
      <p>
        Puedes acceder a tus datos, corregirlos desde tu perfil, solicitar su eliminación o una
        copia portable, y oponerte a determinados tratamientos, dentro de los límites que imponen
        las obligaciones legales de conservación. Para ejercer estos derechos escríbenos a{" "}
        <a href="mailto:privacidad@cotizahub.com" className="btn-link">
          privacidad@cotizahub.com
        </a>
        .
      </p>
    ),
  },
  {
    id: "cookies",
    title: "Cookies",
    body: (
      <p>
        Usamos únicamente cookies esenciales: una para mantener tu sesión iniciada y otra para
        mostrar mensajes de confirmación entre páginas. No utilizamos cookies publicitarias ni de
        seguimiento de terceros.
      </p>
    ),
  },
  {
    id: "menores",
    title: "Menores de edad",
    body: (
      <p>
        Nuestros servicios están dirigidos a mayores de 18 años. No recopilamos de forma consciente
        datos de menores; si detectamos que un menor ha creado una cuenta, la eliminaremos.
      </p>
    ),
  },
  {
    id: "cambios",
    title: "Cambios en esta política",
    body: (
      <p>
        Te notificaremos cualquier cambio material de esta política con al menos 30 días de
        anticipación por correo electrónico o dentro de la Plataforma.
      </p>
    ),
  },
  contactSection({
    lead: "Para cualquier consulta sobre privacidad escríbenos a",
    email: "privacidad@cotizahub.com",
    via: "o usa nuestro",
    after: (
      <>
        . Consulta también nuestros{" "}
        <Link to={paths.terms()} className="btn-link">
          Términos y Condiciones
        </Link>
        .
      </>
    ),
  }),
];

export default function PrivacyPage() {
  return (
    <LegalPage
      title="Política de Privacidad"
      intro={
        <p>
          En CotizaHub respetamos tu privacidad. Esta política explica qué datos personales
          recopilamos, para qué los usamos, con quién los compartimos, cuánto tiempo los conservamos
          y cuáles son tus derechos.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
