/** The one-time token of a create form (models/form-token.server.ts): a double submit stores one row. */
export function FormToken({ value }: { value: string }) {
  return <input type="hidden" name="form_token" value={value} />;
}
