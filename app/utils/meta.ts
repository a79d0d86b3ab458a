import type { MetaDescriptor } from "@remix-run/node";

/**
 * A page's title and its description (search results and link previews show it). Every route's
 * `meta` returns this: Remix replaces, not merges, the parent's meta, so each page says both.
 */
export function pageMeta(title: string, description: string): MetaDescriptor[] {
  return [{ title }, { name: "description", content: description }];
}
