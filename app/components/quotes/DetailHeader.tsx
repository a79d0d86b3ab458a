import type { ReactNode } from "react";
import { BackLink } from "~/components/ui/BackLink";

/** The top of a detail page: the way back, the title with its subtitle, and a status badge. */
export function DetailHeader({
  back,
  backLabel,
  title,
  subtitle,
  badge,
}: {
  back: string;
  backLabel: string;
  title: string;
  subtitle?: ReactNode;
  badge?: ReactNode;
}) {
  return (
    <>
      <BackLink to={back}>{backLabel}</BackLink>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="page-title">{title}</h1>
          {subtitle ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
        </div>
        {badge}
      </div>
    </>
  );
}
