import type { MetaFunction } from "@remix-run/node";
import { Link } from "~/components/ui/Link";
import { LegalPage, type LegalSectionDef } from "~/components/landing/LegalPage";
import { contactSection } from "~/components/legal/ContactSection";
import { paths } from "~/utils/paths";
import { pageMeta } from "~/utils/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "Términos y Condiciones · CotizaHub",
    "Términos y condiciones de uso del marketplace de cotizaciones B2B CotizaHub.",
  );

const SECTIONS: LegalSectionDef[] = [
  {
    id: "aceptacion",
    title: "Aceptación de los términos",
    body: (
      <p>
        Al crear una cuenta, acceder o utilizar CotizaHub (la «Plataforma») aceptas estos Términos y
        Condiciones y nuestra{" "}
        <Link to={paths.privacy()} className="btn-link">
          Política de Privacidad
        </Link>
        . Si actúas en nombre de una empresa, declaras que tienes autoridad para obligarla. Si no
        estás de acuerdo, no utilices la Plataforma.
      </p>
    ),
  },
  {
    id: "servicio",
    title: "Descripción del servicio",
    body: (
      <>
        <p>
          CotizaHub es un marketplace que conecta a compradores empresariales («Compradores») con
          proveedores y prestadores de servicios («Socios»). Los Compradores publican sus
          requerimientos, nuestro equipo los asigna a uno o más Socios, los Socios envían sus
          cotizaciones y CotizaHub emite una cotización oficial consolidada.
        </p>
        <p>
          <strong>
            CotizaHub únicamente facilita las operaciones y no es parte de los contratos
          </strong>{" "}
          que se celebren entre Compradores y Socios. No somos fabricantes, vendedores ni
          distribuidores de los bienes o servicios cotizados, y no garantizamos su calidad,
          legalidad o entrega, que son responsabilidad del Socio.
        </p>
      </>
    ),
  },
  {
    id: "elegibilidad",
    title: "Elegibilidad",
    body: (
      <p>
        Los servicios están dirigidos exclusivamente a personas mayores de 18 años con capacidad
        legal para contratar. Al registrarte confirmas que cumples este requisito.
      </p>
    ),
  },
  {
    id: "cuentas",
    title: "Cuentas y seguridad",
    body: (
      <ul>
        <li>
          Debes proporcionar información veraz, completa y actualizada, y verificar tu correo
          electrónico.
        </li>
        <li>
          Eres responsable de mantener la confidencialidad de tu contraseña y de toda actividad en
          tu cuenta.
        </li>
        <li>Avísanos de inmediato si detectas un uso no autorizado de tu cuenta.</li>
        <li>
          Podemos suspender o cerrar cuentas que incumplan estos términos o se usen de forma
          fraudulenta.
        </li>
      </ul>
    ),
  },
  {
    id: "cotizaciones",
    title: "Solicitudes y cotizaciones",
    body: (
      <>
        <p>
          Los Socios se comprometen a responder las solicitudes asignadas, normalmente en un plazo
          de 24 a 48 horas, con precios y condiciones reales. Las cotizaciones oficiales emitidas
          por CotizaHub tienen una vigencia de 30 días naturales desde su emisión, salvo que se
          indique otra cosa.
        </p>
        <p>
          La aprobación de una cotización por parte del Comprador expresa su intención de compra y
          genera un registro de pago pendiente por el importe de la cotización oficial.
        </p>
      </>
    ),
  },
  {
    id: "comisiones",
    title: "Comisiones",
    body: (
      <p>
        CotizaHub cobra una comisión sobre las transacciones completadas a través de la Plataforma.
        El porcentaje aplicable se indica en cada cotización oficial antes de su aprobación. No se
        cobran comisiones por solicitudes que no lleguen a completarse.
      </p>
    ),
  },
  {
    id: "pagos",
    title: "Pagos",
    body: (
      <p>
        Los Compradores realizan el pago por los medios indicados y cargan el comprobante
        correspondiente. Todos los pagos son verificados por nuestro equipo administrativo antes de
        su confirmación; la validación puede tardar hasta 2 días hábiles. Un pago rechazado no se
        considera realizado y el Comprador deberá comunicarse con el administrador o enviar un nuevo
        comprobante.
      </p>
    ),
  },
  {
    id: "obligaciones",
    title: "Uso aceptable",
    body: (
      <ul>
        <li>No publiques información falsa, ilícita o que infrinja derechos de terceros.</li>
        <li>
          No intentes eludir la Plataforma para evitar el pago de comisiones por operaciones
          originadas en ella.
        </li>
        <li>No interfieras con la seguridad ni con el funcionamiento de la Plataforma.</li>
        <li>
          Los archivos que subas deben estar libres de software malicioso y ser de tu propiedad o
          uso autorizado.
        </li>
      </ul>
    ),
  },
  {
    id: "propiedad",
    title: "Propiedad intelectual",
    body: (
      <p>
        La Plataforma, su marca, diseño y software pertenecen a CotizaHub. Conservas los derechos
        sobre los archivos y contenidos que subas, y nos concedes una licencia limitada para
        almacenarlos, procesarlos y compartirlos con los participantes de cada operación con el
        único fin de prestar el servicio.
      </p>
    ),
  },
  {
    id: "responsabilidad",
    title: "Limitación de responsabilidad",
    body: (
      <p>
        En la máxima medida permitida por la ley, la responsabilidad total de CotizaHub frente a
        cualquier usuario por cualquier reclamación relacionada con la Plataforma se limita al
        importe de las comisiones efectivamente pagadas por dicho usuario a CotizaHub durante los 12
        meses anteriores al hecho que origine la reclamación. CotizaHub no responde por daños
        indirectos, lucro cesante ni por el incumplimiento de Compradores o Socios.
      </p>
    ),
  },
  {
    id: "ley",
    title: "Ley aplicable y arbitraje",
    body: (
      <p>
        Estos términos se rigen por las leyes del Estado de Florida, Estados Unidos. Cualquier
        controversia derivada de ellos o del uso de la Plataforma se resolverá mediante arbitraje
        vinculante con sede en Miami, Florida, renunciando las partes a cualquier otro fuero que
        pudiera corresponderles.
      </p>
    ),
  },
  {
    id: "cambios",
    title: "Modificaciones",
    body: (
      <p>
        Podemos actualizar estos términos. Te notificaremos cualquier cambio material con al menos
        30 días de anticipación por correo electrónico o dentro de la Plataforma. Si continúas
        usando el servicio después de esa fecha, se entenderá que aceptas los nuevos términos.
      </p>
    ),
  },
  contactSection({
    lead: "Si tienes preguntas sobre estos términos, escríbenos a",
    email: "legal@cotizahub.com",
    via: "o mediante nuestro",
  }),
];

export default function TermsPage() {
  return (
    <LegalPage
      title="Términos y Condiciones"
      intro={
        <p>
          Estos Términos y Condiciones regulan el acceso y uso de CotizaHub por parte de
          compradores, socios y visitantes. Léelos con atención antes de utilizar nuestros
          servicios.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
