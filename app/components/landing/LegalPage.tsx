import { Link } from "~/components/ui/Link";
import type { ReactNode } from "react";
import { paths } from "~/utils/paths";

const LEGAL_LAST_UPDATED = "15 de julio de 2024";

export interface LegalSectionDef {
  id: string;
  title: string;
  body: ReactNode;
}

/** Layout shared by /terms and /privacy: title, last-updated date, table of contents, numbered sections. */
export function LegalPage({
  title,
  intro,
  sections,
}: {
  title: string;
  intro: ReactNode;
  sections: LegalSectionDef[];
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <Link to={paths.home()} className="btn-link text-sm">
        ← Volver al inicio
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-2 text-sm text-slate-700">
        Última actualización: <time dateTime="2024-07-15">{LEGAL_LAST_UPDATED}</time>
      </p>
      <div className="mt-6 space-y-4 leading-relaxed text-slate-800">{intro}</div>
      <nav aria-label="Contenido" className="mt-8 rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-700">Contenido</h2>
        <ol className="mt-3 list-decimal space-y-1 pl-5 text-sm">
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="btn-link font-medium">
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section
          key={section.id}
          id={section.id}
          aria-labelledby={`${section.id}-titulo`}
          className="mt-10 scroll-mt-20"
        >
          <h2 id={`${section.id}-titulo`} className="text-xl font-semibold text-slate-900">
            {index + 1}. {section.title}
          </h2>
          <div className="mt-3 space-y-3 leading-relaxed text-slate-800 [&_li]:mt-1 [&_ul]:list-disc [&_ul]:pl-6">
            {section.body}
          </div>
        </section>
      ))}
    </article>
  );
}
