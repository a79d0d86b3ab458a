/**
 * Only local paths are followed after sign-in: "/buyer/quotes?x=1" yes; "//evil.com", "https://…",
 * "/\\evil.com" or anything with control characters no.
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\\\u0000-\u001f]/.test(to)) return fallback;
  try {
    const url = new URL(to, "http://local.invalid");
    if (url.origin !== "http://local.invalid") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
