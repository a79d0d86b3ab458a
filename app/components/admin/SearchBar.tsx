import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

/** A GET search form (works without JavaScript); extra controls such as filters go in children. */
export function SearchBar({
  q,
  label,
  placeholder,
  children,
}: {
  q: string;
  label: string;
  placeholder?: string;
  children?: ReactNode;
}) {
  return (
    <Form method="get" role="search" className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="flex-1">
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
      <button type="submit" className="btn-primary">
        Buscar
      </button>
    </Form>
  );
}
