/**
 * Every notification the product sends, with the page its "Ver" button must open. A journey that
 * produced notifications ends with `followEachNotification`, which opens each one as its recipient:
 * a link that pointed to a page the recipient cannot see (or to an unknown tab, as
 * `/admin?tab=pagos` once did) fails here, and so does a new kind of notification nobody listed.
 */
import { expect, type Page } from "@playwright/test";

type Destination = { path: RegExp; heading: string | RegExp };

const ADMIN_REQUEST: Destination = { path: /^\/admin\/quotes\/\d+$/, heading: /.+/ };
const BUYER_REQUEST: Destination = { path: /^\/buyer\/quotes\/\d+$/, heading: /.+/ };
const PARTNER_ASSIGNMENT: Destination = { path: /^\/partner\/assignments\/\d+$/, heading: /.+/ };

export const NOTIFICATION_DESTINATIONS: Record<string, Destination | null> = {
  // To the operators.
  "Nueva solicitud de cotización": ADMIN_REQUEST,
  "Nueva cotización de socio": ADMIN_REQUEST,
  "Cotización de socio actualizada": ADMIN_REQUEST,
  "Cotización aprobada por el comprador": ADMIN_REQUEST,
  "Cotización rechazada por el comprador": ADMIN_REQUEST,
  "Un socio declinó una solicitud": ADMIN_REQUEST,
  "Comprobante de pago recibido": {
    path: /^\/admin\/payments$/,
    heading: "Panel de administración",
  },
  "Comprobante de pago reemplazado": {
    path: /^\/admin\/payments$/,
    heading: "Panel de administración",
  },
  "Nuevo mensaje de contacto": { path: /^\/admin\/contacts$/, heading: "Contactos" },
  "Recompensa canjeada": {
    path: /^\/admin\/redemptions$/,
    heading: "Canjes de recompensas",
  },
  // To the buyer.
  "¡Cotización enviada!": BUYER_REQUEST,
  "Socio asignado a tu solicitud": BUYER_REQUEST,
  "Tu cotización oficial está lista": BUYER_REQUEST,
  "El equipo registró tu aprobación": BUYER_REQUEST,
  "Estado de tu solicitud actualizado": BUYER_REQUEST,
  "Buscamos una nueva cotización": BUYER_REQUEST,
  "Pago confirmado": { path: /^\/buyer\/payments$/, heading: "Pagos" },
  "Pago rechazado": { path: /^\/buyer\/payments$/, heading: "Pagos" },
  "Recompensa entregada": { path: /^\/buyer\/rewards$/, heading: "Recompensas" },
  // To a partner.
  "Nueva solicitud de cotización asignada": PARTNER_ASSIGNMENT,
  "¡Tu cotización fue seleccionada!": PARTNER_ASSIGNMENT,
  "Oferta no seleccionada": PARTNER_ASSIGNMENT,
  "El comprador rechazó la cotización": PARTNER_ASSIGNMENT,
  "Asignación retirada": PARTNER_ASSIGNMENT,
  "Plazo ampliado": PARTNER_ASSIGNMENT,
  "Solicitud reabierta": PARTNER_ASSIGNMENT,
  "Solicitud actualizada por el comprador": PARTNER_ASSIGNMENT,
  // To the operators and to each partner still part of the request (same title).
  "Solicitud cancelada por el comprador": {
    path: /^\/(admin\/quotes|partner\/assignments)\/\d+$/,
    heading: /.+/,
  },
};

/**
 * Opens every notification on `page`'s first notifications page through its "Ver" button and
 * checks where it lands. Returns the titles followed, so a journey can say which it expects.
 */
export async function followEachNotification(page: Page): Promise<string[]> {
  await page.goto("/notifications");
  const items = page.getByRole("listitem").filter({ has: page.locator("p.font-semibold") });
  // The title is the first text of its line; the badges after it are not part of it.
  const titles = await items
    .locator("p.font-semibold")
    .evaluateAll((lines) => lines.map((line) => line.firstChild?.textContent?.trim() ?? ""));
  for (const title of titles) {
    expect(
      Object.keys(NOTIFICATION_DESTINATIONS),
      `la notificación «${title}» no tiene destino conocido`,
    ).toContain(title);
  }
  const followed: string[] = [];
  for (const [index, title] of titles.entries()) {
    const destination = NOTIFICATION_DESTINATIONS[title];
    await page.goto("/notifications");
    const item = items.nth(index);
    await expect(item).toContainText(title);
    if (!destination) {
      await expect(item.getByRole("button", { name: "Ver" })).toHaveCount(0);
      continue;
    }
    await item.getByRole("button", { name: "Ver" }).click();
    await expect(page, `«${title}» lleva a su página`).toHaveURL((url) =>
      destination.path.test(url.pathname),
    );
    await expect(page.getByRole("heading", { level: 1 }).first()).toHaveText(destination.heading);
    await expect(page.getByText(/no encontrad[ao]/i)).toHaveCount(0);
    followed.push(title);
  }
  return followed;
}
