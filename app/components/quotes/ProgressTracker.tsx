import { progressSteps } from "~/domain/quote-status";

/**
 * SPEC §4 buyer progress tracker, as an ordered list so it reads well without styles. `reached`
 * lists the statuses the request has had (its history), for a request that ended early.
 */
export function ProgressTracker({
  status,
  reached = [],
}: {
  status: string;
  reached?: readonly string[];
}) {
  const steps = progressSteps(status, reached);
  return (
    <ol className="grid gap-3 sm:grid-cols-5" aria-label="Progreso de la solicitud">
      {steps.map((step, index) => (
        <li key={step.key} className="flex items-center gap-2 sm:flex-col sm:text-center">
          <span
            className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
              step.end
                ? "bg-slate-700 text-white"
                : step.done
                  ? "bg-green-700 text-white"
                  : "bg-slate-200 text-slate-700"
            }`}
            aria-hidden="true"
          >
            {step.end ? "✕" : step.done ? "✓" : index + 1}
          </span>
          <span className="text-sm">
            {step.label}
            <span className="sr-only">
              {step.end ? " (fin del proceso)" : step.done ? " (completado)" : " (pendiente)"}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}
