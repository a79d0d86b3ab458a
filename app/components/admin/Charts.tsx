/**
 * Charts drawn on the server as inline SVG: no chart library, nothing to run in the browser.
 * Each chart is one image for assistive technology, named by its title and summarised in its label.
 */

interface ChartDatum {
  label: string;
  value: number;
}

const WIDTH = 640;
const PAD = { top: 24, right: 12, bottom: 40, left: 12 };

function summary(data: ChartDatum[], format: (n: number) => string): string {
  return data.map((d) => `${d.label}: ${format(d.value)}`).join("; ");
}

/** Vertical bars with the value above each bar and its label below. */
export function ColumnChart({
  id,
  title,
  data,
  format = String,
  tone = "brand",
  width = WIDTH,
  height = 260,
  minWidthClass = "",
}: {
  id: string;
  title: string;
  data: ChartDatum[];
  format?: (n: number) => string;
  tone?: "brand" | "green" | "amber";
  /** The drawing's own units: a narrower box draws larger text in a narrow card. */
  width?: number;
  height?: number;
  /** Below this width the chart scrolls sideways instead of shrinking its text. */
  minWidthClass?: string;
}) {
  const max = Math.max(1, ...data.map((d) => d.value));
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = height - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, data.length);
  const barWidth = Math.min(48, slot * 0.7);
  const fill = { brand: "fill-brand-600", green: "fill-green-700", amber: "fill-amber-600" }[tone];
  return (
    // Scrolls sideways on narrow screens; focusable so keyboard users can scroll it too. The
    // scroller runs right to left so it opens on the latest months (no script needed); the chart
    // inside reads left to right.
    <div
      dir="rtl"
      className="relative overflow-x-auto"
      tabIndex={0}
      role="group"
      aria-label={title}
    >
      <div dir="ltr" className={minWidthClass}>
        <svg
          role="img"
          aria-label={`${title}. ${summary(data, format)}`}
          viewBox={`0 0 ${width} ${height}`}
          className="h-auto w-full"
        >
          <title id={`${id}-title`}>{`${title}. ${summary(data, format)}`}</title>
          <line
            x1={PAD.left}
            x2={width - PAD.right}
            y1={PAD.top + plotHeight}
            y2={PAD.top + plotHeight}
            className="stroke-slate-300"
          />
          {data.map((d, i) => {
            const h = (d.value / max) * plotHeight;
            const x = PAD.left + slot * i + (slot - barWidth) / 2;
            const y = PAD.top + plotHeight - h;
            return (
              <g key={d.label}>
                <rect
                  x={x}
                  y={y}
                  width={barWidth}
                  height={Math.max(h, 0)}
                  rx={3}
                  className={fill}
                />
                <text
                  x={x + barWidth / 2}
                  y={y - 6}
                  textAnchor="middle"
                  className="fill-slate-800 text-[11px] font-semibold"
                >
                  {format(d.value)}
                </text>
                <text
                  x={x + barWidth / 2}
                  y={height - PAD.bottom + 18}
                  textAnchor="middle"
                  className="fill-slate-700 text-[12px]"
                >
                  {d.label}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
    </div>
  );
}

/** Horizontal bars, widest first: the status funnel. */
export function FunnelChart({
  id,
  title,
  data,
}: {
  id: string;
  title: string;
  data: ChartDatum[];
}) {
  const first = Math.max(1, data[0]?.value ?? 0);
  const funnelWidth = 420;
  const rowHeight = 40;
  const labelWidth = 100;
  const height = data.length * rowHeight + 8;
  const barSpace = funnelWidth - labelWidth - 100;
  const share = (v: number) => `${Math.round((v / first) * 100)} %`;
  return (
    <svg
      role="img"
      aria-label={`${title}. ${summary(data, (v) => `${v} (${share(v)})`)}`}
      viewBox={`0 0 ${funnelWidth} ${height}`}
      className="h-auto w-full"
    >
      <title id={`${id}-title`}>{`${title}. ${summary(data, (v) => `${v} (${share(v)})`)}`}</title>
      {data.map((d, i) => {
        const w = Math.max(2, (d.value / first) * barSpace);
        const y = i * rowHeight + 4;
        return (
          <g key={d.label}>
            <text x={0} y={y + 22} className="fill-slate-800 text-[15px] font-medium">
              {d.label}
            </text>
            <rect
              x={labelWidth}
              y={y + 4}
              width={w}
              height={rowHeight - 12}
              rx={4}
              className="fill-brand-600"
              opacity={1 - i * 0.12}
            />
            <text x={labelWidth + w + 8} y={y + 22} className="fill-slate-800 text-[15px]">
              {`${d.value} · ${share(d.value)}`}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
