/** A buyer's contact details, as the admin and the assigned partner see them on a request. */
export interface BuyerContactDetails {
  firstName: string;
  lastName: string;
  company: string | null;
  email: string;
  phone: string | null;
}

/** How to reach a request's buyer: name, company, e-mail and phone links. */
export function BuyerContact({
  buyer,
  nameLabel,
  noPhone,
  className,
  linkClassName,
  telOf = (phone) => phone,
}: {
  buyer: BuyerContactDetails;
  /** The label of the name row ("Comprador", "Contacto"). */
  nameLabel: string;
  /** Shown when the buyer left no phone. */
  noPhone: string;
  className: string;
  linkClassName: string;
  /** The number dialled by the phone link. */
  telOf?: (phone: string) => string;
}) {
  return (
    <dl className={className}>
      <div>
        <dt className="text-slate-600">{nameLabel}</dt>
        <dd className="font-medium">
          {buyer.firstName} {buyer.lastName}
        </dd>
      </div>
      <div>
        <dt className="text-slate-600">Empresa</dt>
        <dd className="font-medium">{buyer.company || "Empresa no especificada"}</dd>
      </div>
      <div>
        <dt className="text-slate-600">Correo</dt>
        <dd className="break-all">
          <a href={`mailto:${buyer.email}`} className={linkClassName}>
            {buyer.email}
          </a>
        </dd>
      </div>
      <div>
        <dt className="text-slate-600">Teléfono</dt>
        <dd>
          {buyer.phone ? (
            <a href={`tel:${telOf(buyer.phone)}`} className={linkClassName}>
              {buyer.phone}
            </a>
          ) : (
            noPhone
          )}
        </dd>
      </div>
    </dl>
  );
}
