import { useLocation } from "@remix-run/react";
import { Link } from "~/components/ui/Link";
import { FilterSelect } from "~/components/admin/SearchBar";
import { Field } from "~/components/ui/Field";
import {
  rangeChipLabel,
  searchWithout,
  SORT_LABELS,
  type DateRangeInput,
  type ListSort,
} from "~/domain/list-filters";
import { formatDate } from "~/utils/format";

/**
 * The `desde` / `hasta` fields of a list's GET form (app/domain/list-filters), under a legend that
 * says which date they filter on. Two columns even at 360 px: a date input fits in half of it.
 */
export function DateRangeFields({
  input,
  subject,
}: {
  input: Pick<DateRangeInput, "values" | "errors">;
  /** What the dates are (RANGE_SUBJECTS). */
  subject: string;
}) {
  return (
    <fieldset className="min-w-0">
      <legend className="label">{subject}</legend>
      <div className="grid grid-cols-2 gap-2">
        <Field
          label="Desde"
          name="desde"
          type="date"
          defaultValue={input.values.desde}
          errors={input.errors.desde}
        />
        <Field
          label="Hasta"
          name="hasta"
          type="date"
          defaultValue={input.values.hasta}
          errors={input.errors.hasta}
        />
      </div>
    </fieldset>
  );
}

/** The `orden` select: the list's default sort is the empty choice, so it stays out of the URL. */
export function SortSelect<T extends ListSort>({
  sorts,
  value,
}: {
  /** The list's sorts, its default first. */
  sorts: readonly T[];
  value: T;
}) {
  const [fallback, ...others] = sorts;
  const options = Object.fromEntries(others.map((s) => [s, SORT_LABELS[s]])) as Record<T, string>;
  return (
    <FilterSelect
      label="Ordenar por"
      name="orden"
      value={value === fallback ? null : value}
      options={options}
      emptyLabel={SORT_LABELS[fallback!]}
    />
  );
}

export interface FilterChip {
  label: string;
  /** The URL parameters that removing the chip clears. */
  clears: readonly string[];
}

/** The chip of a date range, when one applies. */
export function rangeChip(input: DateRangeInput, subject: string): FilterChip | null {
  const label = rangeChipLabel(input.range, formatDate);
  return label ? { label: `${subject}: ${label.toLowerCase()}`, clears: ["desde", "hasta"] } : null;
}

/** The chip of a sort other than the list's default. */
export function sortChip<T extends ListSort>(sorts: readonly T[], value: T): FilterChip | null {
  return value === sorts[0] ? null : { label: `Orden: ${SORT_LABELS[value]}`, clears: ["orden"] };
}

/**
 * The filters in force as chips, each a link that removes it (plain links: no JavaScript needed),
 * and one that removes them all. Removing a filter goes back to the list's first page.
 */
export function ActiveFilters({ chips }: { chips: (FilterChip | null | false)[] }) {
  const { pathname, search } = useLocation();
  const shown = chips.filter((c): c is FilterChip => Boolean(c));
  if (shown.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-slate-700">Filtros activos:</span>
      <ul className="flex flex-wrap gap-2">
        {shown.map((chip) => (
          <li
            key={chip.label}
            className="inline-flex max-w-full items-center gap-1 rounded-full bg-slate-100 py-1 pl-3 pr-1 text-slate-800"
          >
            <span className="wrap-anywhere">{chip.label}</span>
            <Link
              to={`${pathname}${searchWithout(search, chip.clears)}`}
              className="rounded-full px-2 text-brand-700 hover:bg-slate-200"
              aria-label={`Quitar filtro: ${chip.label}`}
            >
              ×
            </Link>
          </li>
        ))}
      </ul>
      <Link
        to={`${pathname}${searchWithout(
          search,
          shown.flatMap((c) => c.clears),
        )}`}
        className="text-brand-700 underline"
      >
        Quitar filtros
      </Link>
    </div>
  );
}
