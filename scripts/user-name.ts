/**
 * The first and last name `user:create` gives a new user: from `--name "Nombre Apellido"` (first
 * word → first name, the rest → last name), otherwise from the e-mail's local part
 * ("ana.lopez@x" → "Ana" "Lopez"). Nothing is invented: a part that cannot be told comes back
 * empty ("socio3@x" has no last name), and user:create then asks for --name.
 */

function capitalise(word: string): string {
  return word.charAt(0).toLocaleUpperCase("es") + word.slice(1).toLocaleLowerCase("es");
}

function split(words: string[]): { firstName: string; lastName: string } {
  const [first, ...rest] = words;
  return { firstName: first ?? "", lastName: rest.join(" ") };
}

export function namesFromFullName(fullName: string): { firstName: string; lastName: string } {
  return split(fullName.trim().split(/\s+/).filter(Boolean));
}

export function namesFromEmail(email: string): { firstName: string; lastName: string } {
  const local = email.split("@")[0]!.split("+")[0]!;
  const words = local
    .split(/[._-]+/)
    .filter((w) => w && !/^\d+$/.test(w))
    .map(capitalise);
  return split(words);
}
