import { progressSteps } from "~/domain/quote-status";

/** SPEC §4 buyer progress tracker, as an ordered list so it reads well without styles. */
export function ProgressTracker({ status }: { status: string }) {
  const steps = progressSteps(status);
  return (
    <ol className="grid gap-3 sm:grid-cols-5" aria-label="Progreso de la solicitud">
      {steps.map((step, index) => (
        <li key={step.key} className="flex items-center gap-2 sm:flex-col sm:text-center">
          <span
            className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
              step.done ? "bg-green-700 text-white" : "bg-slate-200 text-slate-700"
            }`}
            aria-hidden="true"
          >
            {step.done ? "✓" : index + 1}
          </span>
          <span className="text-sm">
            {step.label}
            <span className="sr-only">{step.done ? " (completado)" : " (pendiente)"}</span>
          </span>
        </li>
      ))}
    </ol>
  );
}
