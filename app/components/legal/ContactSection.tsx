import { Link } from "~/components/ui/Link";
import type { ReactNode } from "react";
import type { LegalSectionDef } from "~/components/landing/LegalPage";
import { paths } from "~/utils/paths";

/**
 * The last section of /terms and /privacy: the mailbox that answers about the page, or the contact
 * form. `after` closes the sentence after the form's link.
 */
export function contactSection({
  lead,
  email,
  via,
  after = ".",
}: {
  lead: string;
  email: string;
  via: string;
  after?: ReactNode;
}): LegalSectionDef {
  return {
    id: "contacto",
    title: "Contacto",
    body: (
      <p>
        {lead}{" "}
        <a href={`mailto:${email}`} className="btn-link">
          {email}
        </a>{" "}
        {via}{" "}
        <Link to={paths.contact()} className="btn-link">
          formulario de contacto
        </Link>
        {after}
      </p>
    ),
  };
}
