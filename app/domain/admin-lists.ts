/** Back-office lists page on the server, this many rows at a time. */
export const ADMIN_PAGE_SIZE = 25;

interface Option {
  id: number;
  name: string;
}

/**
 * Long option lists (a thousand partners as product suppliers) travel to the browser as one
 * "id<TAB>name" line each: the loader data is serialised next to the HTML, and one string costs a
 * third of what a list of objects does, which keeps the page inside its size budget.
 */
export function packOptions(options: Option[]): string {
  return options.map((o) => `${o.id}\t${o.name.replace(/[\t\n\r]+/g, " ")}`).join("\n");
}

export function unpackOptions(packed: string): Option[] {
  if (!packed) return [];
  return packed.split("\n").map((line) => {
    const tab = line.indexOf("\t");
    return { id: Number(line.slice(0, tab)), name: line.slice(tab + 1) };
  });
}
