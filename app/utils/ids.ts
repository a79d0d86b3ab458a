/** A positive integer id from a route param, query or form value ("12"), or null for anything else. */
export function idFrom(value: unknown): number | null {
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
