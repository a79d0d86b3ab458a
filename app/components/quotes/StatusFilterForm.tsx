import type { ReactNode } from "react";
import type { RequestStatus } from "../../../db/schema";
import { FilterSelect, SearchBar } from "~/components/admin/SearchBar";
import { STATUS_LABELS } from "~/domain/quote-status";

/**
 * A GET search + request status filter (and any further controls in `children`); a plain form so
 * it works without JavaScript.
 */
export function StatusFilterForm({
  q,
  status,
  searchLabel,
  placeholder,
  children,
}: {
  q: string;
  status: RequestStatus | null;
  searchLabel: string;
  placeholder: string;
  children?: ReactNode;
}) {
  return (
    <SearchBar
      q={q}
      label={searchLabel}
      placeholder={placeholder}
      submitLabel="Filtrar"
      className=""
    >
      <FilterSelect value={status} options={STATUS_LABELS} />
      {children}
    </SearchBar>
  );
}
