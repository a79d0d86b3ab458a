/** What the buyer wrote about a request, with its line breaks. */
export function RequestDescription({ text }: { text: string | null }) {
  return (
    <p className="mt-3 whitespace-pre-line wrap-anywhere text-slate-800">
      {text || "Sin descripción."}
    </p>
  );
}
