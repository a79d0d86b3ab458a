/**
 * A progress bar drawn with SVG attributes: the CSP forbids inline `style`, and a width class per
 * percentage would bloat the stylesheet.
 */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <svg
      viewBox="0 0 100 4"
      preserveAspectRatio="none"
      className="h-2 w-full"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
    >
      <rect width="100" height="4" rx="2" className="fill-slate-200" />
      <rect width={clamped} height="4" rx="2" className="fill-brand-600" />
    </svg>
  );
}
