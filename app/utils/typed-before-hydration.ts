/**
 * React 18, hydrating a textarea, puts the server's text back into it (it leaves an input's value
 * alone), so notes typed while the page's modules were still loading were silently replaced and
 * the old text saved. The page's first inline script (services/page-scripts.server) keeps what is
 * typed in any textarea under this property of the element; `restoreTypedText` puts it back once
 * the textarea is hydrated.
 */
export const TYPED_BEFORE_HYDRATION = "__typedBeforeHydration";

export function restoreTypedText(textarea: HTMLTextAreaElement | null) {
  const typed = (textarea as unknown as Record<string, unknown> | null)?.[TYPED_BEFORE_HYDRATION];
  if (textarea && typeof typed === "string" && textarea.value !== typed) textarea.value = typed;
}
