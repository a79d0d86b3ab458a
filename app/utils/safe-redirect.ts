/**
 * Only local paths are followed after sign-in: "/buyer/quotes?x=1" yes; "//evil.com", "https://…",
 * "/\\evil.com", "/.//evil.com" or anything with control characters no. The check runs on the path
 * as a browser will resolve it (dot segments and percent-encoded dots removed), not on the raw text.
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(to) || /%5c|%2f|%00/i.test(to.split(/[?#]/)[0]!))
    return fallback;
  let resolved: URL;
  try {
    resolved = new URL(to, "http://local.invalid");
  } catch {
    return fallback;
  }
  if (resolved.origin !== "http://local.invalid") return fallback;
  const target = resolved.pathname + resolved.search + resolved.hash;
  // After normalisation "/.//evil.com" is "//evil.com": a protocol-relative URL to another site.
  if (target.startsWith("//") || !target.startsWith("/")) return fallback;
  return target;
}
