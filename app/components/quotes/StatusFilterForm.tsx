import { Form } from "@remix-run/react";
import type { RequestStatus } from "../../../db/schema";
import { REQUEST_STATUSES, STATUS_LABELS } from "~/domain/quote-status";

/** A GET search + status filter; a plain form so it works without JavaScript. */
export function StatusFilterForm({
  q,
  status,
  searchLabel,
  placeholder,
}: {
  q: string;
  status: RequestStatus | null;
  searchLabel: string;
  placeholder: string;
}) {
  return (
    <Form method="get" className="flex flex-col gap-3 sm:flex-row sm:items-end" role="search">
      <div className="flex-1">
        <label htmlFor="filtro-q" className="label">
          {searchLabel}
        </label>
        <input
          id="filtro-q"
          name="q"
          type="search"
          defaultValue={q}
          placeholder={placeholder}
          className="input"
        />
      </div>
      <div>
        <label htmlFor="filtro-estado" className="label">
          Estado
        </label>
        <select id="filtro-estado" name="status" defaultValue={status ?? ""} className="input">
          <option value="">Todos</option>
          {REQUEST_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn-secondary">
        Filtrar
      </button>
    </Form>
  );
}
