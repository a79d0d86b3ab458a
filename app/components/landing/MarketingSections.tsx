import { Icon, type IconName } from "./Icon";
import { SectionHeading } from "./SectionHeading";

const SECTORS: { name: string; icon: IconName }[] = [
  { name: "Petroleras", icon: "oil" },
  { name: "Gobiernos", icon: "building" },
  { name: "Venta de Vehículos", icon: "car" },
  { name: "Cadenas de Supermercados", icon: "cart" },
  { name: "Fondos de Inversión", icon: "chart" },
];

export function SectorsStrip() {
  return (
    <section aria-labelledby="sectores-titulo" className="border-b border-slate-200 bg-white">
      <div className="mx-auto max-w-7xl px-4 py-8">
        <h2
          id="sectores-titulo"
          className="text-center text-sm font-semibold uppercase tracking-wide text-slate-700"
        >
          Sectores que confían en nosotros
        </h2>
        <ul className="mt-5 flex flex-wrap justify-center gap-x-8 gap-y-4">
          {SECTORS.map((sector) => (
            <li key={sector.name} className="flex items-center gap-2 font-semibold text-slate-800">
              <Icon name={sector.icon} className="h-6 w-6 text-brand-700" />
              {sector.name}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** Marketing figures exactly as SPEC §1 gives them (DECISIONS §3: "marketing figures and copy as SPEC"). */
const STATS = [
  { value: "10,000+", label: "Compradores activos" },
  { value: "500+", label: "Socios verificados" },
  { value: "$50M+", label: "Cotizaciones procesadas" },
  { value: "98%", label: "Tasa de éxito" },
];

export function Stats() {
  return (
    <section aria-labelledby="cifras-titulo" className="bg-brand-800 text-white">
      <div className="mx-auto max-w-7xl px-4 py-12">
        <h2 id="cifras-titulo" className="sr-only">
          CotizaHub en cifras
        </h2>
        <dl className="grid grid-cols-2 gap-8 text-center lg:grid-cols-4">
          {STATS.map((stat) => (
            <div key={stat.label} className="flex flex-col-reverse">
              <dt className="mt-1 text-sm font-medium text-brand-50">{stat.label}</dt>
              <dd className="text-3xl font-extrabold sm:text-4xl">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

const VALUES: { name: string; text: string; icon: IconName }[] = [
  {
    name: "Innovador",
    text: "Tecnología que simplifica cada paso de la cotización.",
    icon: "bulb",
  },
  {
    name: "Sustentable",
    text: "Procesos digitales, sin papel, y proveedores responsables.",
    icon: "leaf",
  },
  {
    name: "Respeto",
    text: "Trato justo y transparente con compradores y socios.",
    icon: "handshake",
  },
  {
    name: "Trabajo en Equipo",
    text: "Compradores, socios y nuestro equipo, con un mismo objetivo.",
    icon: "users",
  },
  {
    name: "Visión de Largo Plazo",
    text: "Relaciones comerciales que crecen con el tiempo.",
    icon: "telescope",
  },
  {
    name: "Adaptable",
    text: "Soluciones para cada industria y tamaño de empresa.",
    icon: "refresh",
  },
];

export function Values() {
  return (
    <section aria-labelledby="valores-titulo" className="mx-auto max-w-7xl px-4 py-16">
      <SectionHeading id="valores-titulo" eyebrow="Nuestros valores" title="Lo que nos mueve">
        Construimos relaciones de negocio duraderas sobre seis principios.
      </SectionHeading>
      <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {VALUES.map((value) => (
          <li
            key={value.name}
            className="flex gap-4 rounded-lg border border-slate-200 bg-white p-5"
          >
            <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
              <Icon name={value.icon} />
            </span>
            <div>
              <h3 className="font-semibold text-slate-900">{value.name}</h3>
              <p className="mt-1 text-sm text-slate-700">{value.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

const BENEFITS: { title: string; text: string; icon: IconName }[] = [
  {
    title: "Cotizaciones en 24-48 horas",
    text: "Nuestros socios responden a tu solicitud en 24 a 48 horas, sin que tengas que perseguir a nadie.",
    icon: "clock",
  },
  {
    title: "Socios verificados",
    text: "Cada proveedor pasa por un proceso de verificación antes de poder cotizar en la plataforma.",
    icon: "shield",
  },
  {
    title: "Pagos transparentes",
    text: "Sigue cada pago desde tu panel; nuestro equipo valida los comprobantes en un máximo de 2 días hábiles.",
    icon: "card",
  },
  {
    title: "Cotización oficial consolidada",
    text: "Comparamos las propuestas y te enviamos una cotización oficial en PDF, con vigencia de 30 días.",
    icon: "document",
  },
  {
    title: "Programa de lealtad",
    text: "Acumula puntos con cada compra completada y canjéalos por descuentos y consultorías.",
    icon: "gift",
  },
  {
    title: "Soporte dedicado",
    text: "Un equipo que conoce tu industria y responde tus mensajes en menos de 24 horas.",
    icon: "support",
  },
];

export function Benefits() {
  return (
    <section aria-labelledby="beneficios-titulo" className="bg-white">
      <div className="mx-auto max-w-7xl px-4 py-16">
        <SectionHeading
          id="beneficios-titulo"
          eyebrow="Beneficios"
          title="¿Por qué elegir CotizaHub?"
        >
          Todo lo que tu área de compras necesita, en un solo lugar.
        </SectionHeading>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {BENEFITS.map((benefit) => (
            <li key={benefit.title} className="card">
              <span className="flex h-11 w-11 items-center justify-center rounded-lg bg-brand-700 text-white">
                <Icon name={benefit.icon} />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{benefit.title}</h3>
              <p className="mt-2 text-sm text-slate-700">{benefit.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

const STEPS: { title: string; text: string; icon: IconName }[] = [
  {
    title: "Sube tus requerimientos",
    text: "Crea una solicitud y adjunta tu archivo de requerimientos (PDF, Excel o imagen).",
    icon: "upload",
  },
  {
    title: "Recibe múltiples cotizaciones",
    text: "Socios verificados cotizan en 24-48 horas y te enviamos una cotización oficial consolidada.",
    icon: "inbox",
  },
  {
    title: "Completa y gana",
    text: "Aprueba la cotización, envía tu comprobante de pago y acumula puntos de lealtad.",
    icon: "trophy",
  },
];

export function HowItWorks() {
  return (
    <section aria-labelledby="como-funciona-titulo" className="mx-auto max-w-7xl px-4 py-16">
      <SectionHeading
        id="como-funciona-titulo"
        eyebrow="Cómo funciona"
        title="Tres pasos para cotizar mejor"
      />
      <ol className="mt-10 grid gap-6 md:grid-cols-3">
        {STEPS.map((step, index) => (
          <li key={step.title} className="relative rounded-lg border border-slate-200 bg-white p-6">
            <div className="flex items-center gap-3">
              <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white">
                {index + 1}
              </span>
              <Icon name={step.icon} className="h-7 w-7 text-brand-700" />
            </div>
            <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
            <p className="mt-2 text-sm text-slate-700">{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
