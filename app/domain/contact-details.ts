/**
 * Contact details in a partner's message (DECISIONS §8: a forward to the buyer never carries the
 * partner's names or contact details). A pure detector: e-mail addresses (also spelt «arroba»),
 * phone numbers as people in Mexico and Latin America write them, web addresses and bare domains,
 * and the partner's own first name, last name and company. The operator sees them marked in the
 * partner's message and starts the forward from a copy with each one replaced; the operator still
 * reads and edits that copy, so the detector leans towards marking a doubtful case.
 */

export type ContactDetailKind = "email" | "phone" | "url" | "name" | "company";

/** A stretch of the text to hide: [start, end) in UTF-16 units, with what it looked like. */
export interface ContactDetail {
  start: number;
  end: number;
  kinds: ContactDetailKind[];
}

/** Who wrote the message, as stored on their account. */
export interface PartnerIdentity {
  firstName?: string | null;
  lastName?: string | null;
  companyName?: string | null;
}

/** What stands in the buyer's copy where a detail was. */
export const HIDDEN_CONTACT_DETAIL = "[dato de contacto oculto]";

/** How a screen reader and the note name each kind. */
export const CONTACT_DETAIL_LABELS: Record<ContactDetailKind, string> = {
  email: "correo electrónico",
  phone: "teléfono",
  url: "sitio web",
  name: "nombre del socio",
  company: "empresa del socio",
};

const LETTER_OR_DIGIT = String.raw`\p{L}\p{N}`;
const LABEL = String.raw`[${LETTER_OR_DIGIT}](?:[${LETTER_OR_DIGIT}-]{0,61}[${LETTER_OR_DIGIT}])?`;

const EMAIL = new RegExp(
  String.raw`(?<![${LETTER_OR_DIGIT}._%+-])[${LETTER_OR_DIGIT}._%+-]+@(?:${LABEL}\.)+\p{L}{2,}`,
  "gu",
);

/** «ventas arroba aceros punto mx», «ventas [at] aceros [punto] mx»: written to slip past filters. */
const SPELT_EMAIL = new RegExp(
  String.raw`(?<![${LETTER_OR_DIGIT}._%+-])[${LETTER_OR_DIGIT}._%+-]+` +
    String.raw`(?:\s*[[(]\s*(?:arroba|at|@)\s*[\])]\s*|\s+arroba\s+)` +
    String.raw`${LABEL}(?:(?:\s*\.\s*|\s*[[(]\s*(?:punto|dot)\s*[\])]\s*|\s+punto\s+)${LABEL})+`,
  "giu",
);

const URL_WITH_SCHEME = /(?:\b(?:https?|ftp):\/\/|\bwww\.)[^\s<>"«»]+/giu;

/**
 * Top-level domains a partner's site plausibly has. A list, not "any two letters", so «p.ej.»,
 * «S.A.», «3.5» or a file name («plano.dwg») is never taken for a site.
 */
const TLDS = [
  "com",
  "net",
  "org",
  "info",
  "biz",
  "io",
  "co",
  "mx",
  "es",
  "us",
  "ar",
  "cl",
  "pe",
  "ec",
  "uy",
  "py",
  "bo",
  "ve",
  "gt",
  "hn",
  "sv",
  "ni",
  "cr",
  "pa",
  "do",
  "cu",
  "br",
  "lat",
  "app",
  "dev",
  "store",
  "shop",
  "online",
  "site",
  "tech",
  "gob",
  "edu",
  "xyz",
  "me",
];
const BARE_DOMAIN = new RegExp(
  String.raw`(?<![${LETTER_OR_DIGIT}@._/-])(?:${LABEL}\.)+(${TLDS.join("|")})(?![${LETTER_OR_DIGIT}-])(?:\/[^\s<>"«»]*)?`,
  "giud",
);

/** Punctuation that ends a sentence rather than an address. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"»]+$/u;

/** One separator between groups of digits: a space, or a dot or dash with optional spaces. */
const SEP = String.raw`(?:[ \u00A0]?[.\-–][ \u00A0]?|[ \u00A0])`;
const PHONE = new RegExp(
  String.raw`(?<![\p{L}\p{N}_$€#/]|\p{N}[.,])` +
    String.raw`(?:(?:\+|\b00)[ \u00A0]?\d{1,3}${SEP}?)?` +
    String.raw`(?:\([ \u00A0]?\d{1,4}[ \u00A0]?\)${SEP}?)?` +
    String.raw`\d+(?:${SEP}\d+){0,6}` +
    String.raw`(?![\p{L}\p{N}_%°]|[.,]\p{N})`,
  "gu",
);

/** Words that announce a phone number just before it («Tel.», «cel:», «llámenos al»). */
const PHONE_CUE =
  /(?<!\p{L})(?:tel(?:[eé]fonos?|s)?|cel(?:ular)?|m[oó]vil|whats\s?app|wha?ts|wa|fax|lada|ll[aá]m\p{L}*|marc\p{L}*|comun[ií]c\p{L}*)\.?(?:\s*(?:[:.#\-–]|al|es|n[uú]m(?:ero)?\.?|n\.?o))*\s*$/iu;

/** A date written with dashes, dots or slashes (2026-11-25, 25.11.2026). */
const DATE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$/u;
/** A quantity or amount with thousands separators (1 250 000, 12.345.678). */
const THOUSANDS = /^\d{1,3}(?:([ \u00A0.])\d{3})(?:\1\d{3})*$/u;

function isPhone(candidate: string, before: string): boolean {
  const digits = candidate.replace(/\D/g, "").length;
  if (digits > 15 || DATE.test(candidate)) return false;
  if (/^(?:\+|00)/.test(candidate) || candidate.includes("(")) return digits >= 8;
  if (PHONE_CUE.test(before.slice(-40))) return digits >= 7;
  if (THOUSANDS.test(candidate)) return false;
  const groups = candidate.split(/\D+/).filter(Boolean);
  // 55 1234 5678, 55-1234-5678, 555.123.4567 or ten digits in a row. Five or more short groups, or
  // groups that all end in 0, read as a list of figures («medidas 10 12 15 20 25», «500 1000 2500»)
  // unless something says it is a phone.
  if (groups.length === 1) return digits >= 10 && digits <= 12;
  if (groups.every((group) => group.endsWith("0"))) return false;
  return digits >= 10 && groups.length <= 4;
}

/**
 * The text with accents, case, compatibility forms (full-width letters and digits, NBSP) and
 * invisible format characters (zero-width spaces, soft hyphens) folded away, and for each folded
 * character the offset of the original character it came from, so a match maps back.
 */
function fold(text: string): { folded: string; origin: number[] } {
  let folded = "";
  const origin: number[] = [];
  let offset = 0;
  for (const char of text) {
    // ASCII needs no normalising (most of a message; a page may hold 50 of 5,000 characters).
    const plain =
      char < "\u0080"
        ? char.toLowerCase()
        : char
            .normalize("NFKD")
            .replace(/[\p{M}\p{Cf}]/gu, "")
            .toLowerCase();
    for (let i = 0; i < plain.length; i++) origin.push(offset);
    folded += plain;
    offset += char.length;
  }
  origin.push(offset);
  return { folded, origin };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Legal forms at the end of a company name: «Aceros del Norte, S.A. de C.V.» is written «Aceros del Norte». */
const LEGAL_FORM =
  /[\s,]+(?:de\s+)?(?:s\.?\s*a\.?\s*p\.?\s*i\.?|s\.?\s*a\.?\s*s\.?|s\.?\s*a\.?\s*b\.?|s\.?\s*a\.?|s\.?\s*de\s*r\.?\s*l\.?|s\.?\s*c\.?|s\.?\s*l\.?|c\.?\s*v\.?|inc\.?|llc\.?|ltda?\.?|corp\.?|gmbh)\s*$/u;

/** Words of a name too common to hide on their own. */
const PARTICLES = new Set(["de", "del", "la", "las", "los", "y", "e", "da", "do", "van", "von"]);

/** The folded forms of the partner's names and company to look for. */
function identityTerms(identity: PartnerIdentity): { term: string; kind: "name" | "company" }[] {
  const terms = new Map<string, "name" | "company">();
  const add = (raw: string, kind: "name" | "company") => {
    const term = fold(raw).folded.replace(/\s+/g, " ").trim();
    if (term.length >= 2 && !PARTICLES.has(term) && !terms.has(term)) terms.set(term, kind);
  };
  for (const name of [identity.firstName, identity.lastName]) {
    if (!name?.trim()) continue;
    add(name, "name");
    // «María José» is also written «María»; a short word or a particle alone is not a name.
    for (const word of name.split(/\s+/)) if (word.length >= 3) add(word, "name");
  }
  const company = identity.companyName?.trim();
  if (company) {
    add(company, "company");
    let core = fold(company).folded.trim();
    while (LEGAL_FORM.test(core)) core = core.replace(LEGAL_FORM, "").trim();
    if (core.length >= 3) add(core, "company");
  }
  return [...terms].map(([term, kind]) => ({ term, kind }));
}

function* matches(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    yield match;
    if (match[0].length === 0) pattern.lastIndex += 1;
  }
}

/**
 * Every contact detail in `text`, in order, without overlaps. Details next to each other (a name
 * and a surname, a name and a phone) are one stretch, so the copy reads «[dato de contacto
 * oculto]» once where the partner signed «Pedro Pérez, 55 1234 5678».
 */
export function findContactDetails(text: string, identity: PartnerIdentity = {}): ContactDetail[] {
  // Everything is looked for in the folded text («５５ １２３４ ５６７８», «ventas＠aceros.mx», digits
  // split by zero-width spaces) and mapped back to the partner's own characters.
  const { folded, origin } = fold(text);
  const found: { start: number; end: number; kind: ContactDetailKind }[] = [];
  const add = (start: number, end: number, kind: ContactDetailKind) => {
    if (end > start) found.push({ start: origin[start]!, end: origin[end]!, kind });
  };

  for (const pattern of [EMAIL, SPELT_EMAIL]) {
    for (const m of matches(pattern, folded)) add(m.index, m.index + m[0].length, "email");
  }
  for (const m of matches(URL_WITH_SCHEME, folded)) {
    const trimmed = m[0].replace(TRAILING_PUNCTUATION, "");
    add(m.index, m.index + trimmed.length, "url");
  }
  for (const m of matches(BARE_DOMAIN, folded)) {
    // «Listo.Me confirman»: a sentence run into the next, not a site.
    const [tldStart, tldEnd] = m.indices![1]!;
    if (/^\p{Lu}\p{Ll}+$/u.test(text.slice(origin[tldStart], origin[tldEnd]))) continue;
    const trimmed = m[0].replace(TRAILING_PUNCTUATION, "");
    add(m.index, m.index + trimmed.length, "url");
  }
  for (const m of matches(PHONE, folded)) {
    if (isPhone(m[0], folded.slice(0, m.index))) add(m.index, m.index + m[0].length, "phone");
  }
  for (const { term, kind } of identityTerms(identity)) {
    const words = term
      .split(" ")
      .map(escapeRegExp)
      .join(String.raw`\s+`);
    const pattern = new RegExp(String.raw`(?<![\p{L}\p{N}])${words}(?![\p{L}\p{N}])`, "gu");
    for (const m of matches(pattern, folded)) add(m.index, m.index + m[0].length, kind);
  }

  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: ContactDetail[] = [];
  for (const detail of found) {
    const last = merged.at(-1);
    const between = last ? text.slice(last.end, detail.start) : "";
    if (last && (detail.start <= last.end || /^[ \t\u00A0,]*$/u.test(between))) {
      // A name inside an address (pedro@…) is part of the address, not a second kind of detail.
      const inside = detail.end <= last.end;
      last.end = Math.max(last.end, detail.end);
      if (!inside && !last.kinds.includes(detail.kind)) last.kinds.push(detail.kind);
    } else {
      merged.push({ start: detail.start, end: detail.end, kinds: [detail.kind] });
    }
  }
  return merged;
}

/** A piece of a message as the operator sees it: plain text, or a detail the copy hides. */
export interface MessagePart {
  text: string;
  /** What the hidden stretch looked like; null for plain text. */
  hidden: ContactDetailKind[] | null;
}

/** What the operator's forward form starts from, computed on the server. */
export interface ForwardDraft {
  /** The partner's message in pieces, the details marked. */
  parts: MessagePart[];
  /** The copy for the buyer, each detail replaced by HIDDEN_CONTACT_DETAIL. */
  copy: string;
  /** How many stretches the copy hides. */
  hidden: number;
}

export function forwardDraft(body: string, identity: PartnerIdentity): ForwardDraft {
  const details = findContactDetails(body, identity);
  const parts: MessagePart[] = [];
  let copy = "";
  let at = 0;
  for (const detail of details) {
    if (detail.start > at) parts.push({ text: body.slice(at, detail.start), hidden: null });
    parts.push({ text: body.slice(detail.start, detail.end), hidden: detail.kinds });
    copy += body.slice(at, detail.start) + HIDDEN_CONTACT_DETAIL;
    at = detail.end;
  }
  if (at < body.length) parts.push({ text: body.slice(at), hidden: null });
  copy += body.slice(at);
  return { parts, copy, hidden: details.length };
}

/** «correo electrónico y teléfono»: the kinds of a hidden stretch, for its label. */
export function contactDetailLabel(kinds: readonly ContactDetailKind[]): string {
  const labels = kinds.map((kind) => CONTACT_DETAIL_LABELS[kind]);
  return labels.length <= 1
    ? (labels[0] ?? "")
    : `${labels.slice(0, -1).join(", ")} y ${labels.at(-1)}`;
}
