/**
 * React 18, hydrating a textarea, puts the server's text back into it (it leaves an input's value
 * and a select's choice alone), so notes typed while the page's modules were still loading were
 * silently replaced and the old text saved. The page's first inline script
 * (services/page-scripts.server) keeps what is typed in a textarea under this property of the
 * element; the root puts it back once the page is hydrated (`restoreTypedBeforeHydration`).
 */
export const TYPED_BEFORE_HYDRATION = "__typedBeforeHydration";

export function restoreTypedBeforeHydration(root: ParentNode = document) {
  for (const textarea of root.querySelectorAll("textarea")) {
    const kept = (textarea as unknown as Record<string, unknown>)[TYPED_BEFORE_HYDRATION];
    if (typeof kept === "string") textarea.value = kept;
    delete (textarea as unknown as Record<string, unknown>)[TYPED_BEFORE_HYDRATION];
  }
}
