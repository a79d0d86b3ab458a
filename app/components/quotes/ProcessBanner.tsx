/** The admin's process flow (SPEC §2): where a request goes next. */
export function ProcessBanner() {
  const steps = ["Pendiente", "Asignado", "Cotizado", "Aprobado", "Pagado"];
  return (
    <ol
      className="flex flex-wrap items-center gap-2 rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm text-brand-900"
      aria-label="Flujo del proceso"
    >
      {steps.map((step, index) => (
        <li key={step} className="flex items-center gap-2">
          <span className="rounded-full bg-white px-2.5 py-0.5 font-semibold ring-1 ring-brand-200">
            {index + 1}. {step}
          </span>
          {index < steps.length - 1 ? <span aria-hidden="true">→</span> : null}
        </li>
      ))}
    </ol>
  );
}
