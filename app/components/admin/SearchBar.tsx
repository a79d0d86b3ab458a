import { Form, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";

/** A GET search form (works without JavaScript); extra controls such as filters go in children. */
export function SearchBar({
  q,
  label,
  placeholder,
  submitLabel = "Buscar",
  className = "mt-6",
  children,
}: {
  q: string;
  label: string;
  placeholder?: string;
  submitLabel?: string;
  className?: string;
  children?: ReactNode;
}) {
  // Keyed by the query so its uncontrolled fields show the list's filters again after a chip or
  // a link changes them (with JavaScript the form is not re-created by a navigation).
  const { search } = useLocation();
  return (
    <Form
      key={search}
      method="get"
      role="search"
      className={`flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end ${className}`}
    >
      {/* Never narrower than a few words: the filters wrap to the next line instead. */}
      <div className="flex-1 sm:min-w-[16rem]">
        <label htmlFor="search-q" className="label">
          {label}
        </label>
        <input
          id="search-q"
          name="q"
          type="search"
          defaultValue={q}
          placeholder={placeholder}
          maxLength={100}
          className="input"
        />
      </div>
      {children}
      <button type="submit" className={submitLabel === "Buscar" ? "btn-primary" : "btn-secondary"}>
        {submitLabel}
      </button>
    </Form>
  );
}

/**
 * A select inside a SearchBar: an empty choice ("Todos" unless `emptyLabel` names the default it
 * stands for) plus one option per value.
 */
export function FilterSelect<T extends string>({
  label = "Estado",
  name = "status",
  value,
  options,
  emptyLabel = "Todos",
}: {
  label?: string;
  name?: string;
  value: T | null;
  options: Record<T, string>;
  emptyLabel?: string;
}) {
  return (
    <div>
      <label htmlFor={`filtro-${name}`} className="label">
        {label}
      </label>
      <select id={`filtro-${name}`} name={name} defaultValue={value ?? ""} className="input">
        <option value="">{emptyLabel}</option>
        {(Object.entries(options) as [T, string][]).map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
