import type { ReactNode } from "react";
import type { Tone } from "~/domain/tones";

const TONE_CLASSES: Record<Tone, string> = {
  gray: "bg-slate-100 text-slate-800 ring-slate-300",
  blue: "bg-blue-50 text-blue-800 ring-blue-300",
  yellow: "bg-amber-50 text-amber-900 ring-amber-300",
  green: "bg-green-50 text-green-800 ring-green-300",
  red: "bg-red-50 text-red-800 ring-red-300",
  purple: "bg-purple-50 text-purple-800 ring-purple-300",
};

export type BadgeTone = Tone;

export function Badge({ tone = "gray", children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 [overflow-wrap:normal] py-0.5 text-xs font-semibold ring-1 ring-inset ${TONE_CLASSES[tone]}`}
    >
      {children}
    </span>
  );
}
