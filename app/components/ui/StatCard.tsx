import type { ReactNode } from "react";

function valueSize(value: ReactNode): string {
  const length = typeof value === "string" || typeof value === "number" ? String(value).length : 0;
  return length > 14 ? "text-lg" : length > 10 ? "text-xl" : "text-2xl";
}

/** A counter on a dashboard or list page. */
export function StatCard({
  label,
  value,
  hint,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
}) {
  return (
    // A long amount ("USD 80,480.00") gets a smaller size and, on a narrow card, wraps after its
    // currency (the no-break space formatMoney puts there becomes a plain one here), never inside
    // the number; anything longer still wraps inside its card instead of widening the page.
    <div className="card min-w-0">
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <p
        className={`mt-1 wrap-anywhere font-bold tabular-nums text-slate-900 ${valueSize(value)}`}
        data-testid={`stat-${label}`}
      >
        {typeof value === "string" ? value.replace(/\u00a0/g, " ") : value}
      </p>
      {hint ? <p className="mt-1 text-xs text-slate-600">{hint}</p> : null}
    </div>
  );
}

export function StatGrid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">{children}</div>;
}
