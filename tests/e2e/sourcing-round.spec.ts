import type { Page } from "@playwright/test";
import { test, expect, waitForMail, screenshots, tag, type Server } from "./fixtures";
import { insertOfficialQuote, insertPartnerQuote, insertRequest } from "./factories";
import { pdfFile } from "./files";
import { followEachNotification } from "./notifications";

/** Time is driven through the data: the deadline is moved, never waited for. */
function setDeadline(server: Server, requestId: number, hoursFromNow: number) {
  const deadline = new Date(Date.now() + hoursFromNow * 3600_000).toISOString();
  server.sql
    .prepare("UPDATE quote_requests SET quote_deadline = ? WHERE id = ?")
    .run(deadline, requestId);
}

/** A `datetime-local` value (read as UTC by the app) `hours` from now. */
function localValue(hours: number) {
  return new Date(Date.now() + hours * 3600_000).toISOString().slice(0, 16);
}

function stateOf(server: Server, requestId: number, partnerId: number) {
  return server.sql
    .prepare(
      "SELECT state, decline_reason FROM partner_assignments WHERE quote_request_id = ? AND partner_id = ?",
    )
    .get(requestId, partnerId) as { state: string; decline_reason: string | null };
}

async function fillAmount(page: Page, amount: string) {
  await page.locator('input[name="amount"]').fill(amount);
}

test("ronda: uno declina, el otro oferta, vence el plazo, el operador lo amplía y la edición pasa", async ({
  server,
  createUser,
  pageAs,
  axe,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const declining = await createUser({ role: "partner", companyName: "Aceros Ficticios" });
  const offering = await createUser({ role: "partner", companyName: "Válvulas Ficticias" });
  const title = `Bridas de acero ${tag()}`;
  const requestId = insertRequest(server, {
    buyer,
    title,
    status: "assigned",
    partners: [declining, offering],
  });
  setDeadline(server, requestId, 48);
  const [decliningPage, offeringPage, adminPage] = await Promise.all([
    pageAs(declining),
    pageAs(offering),
    pageAs(admin),
  ]);

  // 1. One partner declines, with a reason, on a confirmation page.
  await decliningPage.goto(`/partner/assignments/${requestId}`);
  await expect(decliningPage.getByText("Pendiente de cotizar")).toBeVisible();
  await decliningPage.getByRole("link", { name: "Declinar solicitud" }).click();
  await expect(decliningPage.getByRole("heading", { level: 1 })).toHaveText("Declinar solicitud");
  await axe(decliningPage);
  await screenshots(decliningPage, "partner-decline", testInfo);
  // An empty reason is refused next to the field and stores nothing.
  await decliningPage.getByLabel("Motivo").fill("  ");
  await decliningPage.getByRole("button", { name: "Declinar solicitud" }).click();
  await expect(decliningPage.getByText("El motivo es obligatorio.")).toBeVisible();
  expect(stateOf(server, requestId, declining.id).state).toBe("invited");
  await decliningPage.getByLabel("Motivo").fill("Sin stock de bridas hasta marzo");
  await decliningPage.getByRole("button", { name: "Declinar solicitud" }).click();
  await expect(decliningPage).toHaveURL(new RegExp(`/partner/assignments/${requestId}$`));
  await expect(decliningPage.getByText(/Declinaste esta solicitud el/)).toBeVisible();
  await expect(decliningPage.getByText("Tu motivo: Sin stock de bridas hasta marzo")).toBeVisible();
  // Closed for them: no description, no file, no buyer contact.
  await expect(decliningPage.getByText("Información del cliente")).toHaveCount(0);
  await expect(decliningPage.getByRole("link", { name: "Descargar" })).toHaveCount(0);
  await screenshots(decliningPage, "partner-declined", testInfo);
  expect(stateOf(server, requestId, declining.id)).toEqual({
    state: "declined",
    decline_reason: "Sin stock de bridas hasta marzo",
  });
  await waitForMail(server, admin.email, "Un socio declinó una solicitud");

  // 2. The operator sees who declined and why.
  await adminPage.goto(`/admin/quotes/${requestId}`);
  const declined = adminPage.getByTestId(`asignacion-${declining.id}`);
  await expect(declined).toContainText("Declinó");
  await expect(declined).toContainText("Motivo: Sin stock de bridas hasta marzo");
  await expect(adminPage.getByTestId(`asignacion-${offering.id}`)).toContainText(
    "Invitado, sin oferta",
  );

  // 3. The other partner offers.
  await offeringPage.goto(`/partner/assignments/${requestId}/quote`);
  await fillAmount(offeringPage, "2500");
  await offeringPage.getByRole("button", { name: "Enviar Cotización" }).click();
  await expect(offeringPage).toHaveURL(/\/partner\/assignments$/);
  expect(stateOf(server, requestId, offering.id).state).toBe("offered");

  // 4. The deadline passes while the partner has the edit form open: the edit is refused.
  await offeringPage.goto(`/partner/assignments/${requestId}/quote`);
  setDeadline(server, requestId, -1);
  await fillAmount(offeringPage, "2400");
  await offeringPage.getByRole("button", { name: /Cotización/ }).click();
  await expect(offeringPage.getByText(/El plazo para cotizar venció el/).first()).toBeVisible();
  const amount = () =>
    (
      server.sql
        .prepare(
          "SELECT quoted_amount_cents AS cents FROM partner_quotes WHERE quote_request_id = ? AND partner_id = ?",
        )
        .get(requestId, offering.id) as { cents: number }
    ).cents;
  expect(amount()).toBe(250_000);
  await offeringPage.goto(`/partner/assignments/${requestId}`);
  await expect(offeringPage.getByTestId("oferta-cerrada")).toContainText(
    "El plazo para cotizar venció el",
  );
  await expect(offeringPage.getByRole("link", { name: "Editar Cotización" })).toHaveCount(0);
  await screenshots(offeringPage, "partner-deadline-passed", testInfo);

  // 5. The operator extends the deadline (an earlier one is refused next to the field).
  await adminPage.goto(`/admin/quotes/${requestId}`);
  await expect(adminPage.getByTestId("plazo")).toContainText("Vencido");
  await adminPage.getByLabel("Nuevo plazo (UTC)").fill(localValue(-0.5));
  await adminPage.getByRole("button", { name: "Ampliar plazo" }).click();
  await expect(
    adminPage.getByText("El plazo para cotizar debe ser posterior a este momento."),
  ).toBeVisible();
  await adminPage.getByLabel("Nuevo plazo (UTC)").fill(localValue(30));
  await adminPage.getByRole("button", { name: "Ampliar plazo" }).click();
  await expect(adminPage.getByText("Plazo ampliado. Los socios fueron notificados.")).toBeVisible();
  await axe(adminPage);
  await screenshots(adminPage, "admin-round", testInfo);
  await waitForMail(server, offering.email, "Plazo ampliado");

  // 6. The edit is accepted now.
  await offeringPage.goto(`/partner/assignments/${requestId}/quote`);
  await fillAmount(offeringPage, "2400");
  await offeringPage.getByRole("button", { name: /Cotización/ }).click();
  await expect(offeringPage).toHaveURL(/\/partner\/assignments$/);
  expect(amount()).toBe(240_000);

  // Every notification of the round opens its page.
  expect(await followEachNotification(offeringPage)).toEqual(
    expect.arrayContaining(["Plazo ampliado"]),
  );
  expect(await followEachNotification(adminPage)).toEqual(
    expect.arrayContaining(["Un socio declinó una solicitud"]),
  );
});

test("el operador retira a un socio invitado y este ya no ve la solicitud", async ({
  server,
  createUser,
  pageAs,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const partner = await createUser({ role: "partner", companyName: "Retirado Ficticio" });
  const other = await createUser({ role: "partner", companyName: "Con Oferta Ficticia" });
  const requestId = insertRequest(server, {
    buyer,
    title: `Tubería ${tag()}`,
    status: "assigned",
    partners: [partner, other],
  });
  insertPartnerQuote(server, { requestId, partner: other, amountCents: 300_000 });
  const [adminPage, partnerPage] = await Promise.all([pageAs(admin), pageAs(partner)]);

  await partnerPage.goto(`/partner/assignments/${requestId}`);
  const fileLink = await partnerPage
    .getByRole("link", { name: "Descargar" })
    .first()
    .getAttribute("href");

  await adminPage.goto(`/admin/quotes/${requestId}`);
  // A partner who already offered cannot be withdrawn: no button for them.
  await expect(
    adminPage.locator("summary", { hasText: "Retirar asignación de Con Oferta Ficticia" }),
  ).toHaveCount(0);
  // It asks first: nothing is withdrawn until «Sí, retirar».
  await adminPage
    .locator("summary", { hasText: "Retirar asignación de Retirado Ficticio" })
    .click();
  expect(stateOf(server, requestId, partner.id).state).toBe("invited");
  await adminPage.getByRole("button", { name: "Sí, retirar a Retirado Ficticio" }).click();
  await expect(adminPage.getByText("Asignación retirada. El socio fue notificado.")).toBeVisible();
  await expect(adminPage.getByTestId(`asignacion-${partner.id}`)).toContainText(
    "Retirado por el operador",
  );
  expect(stateOf(server, requestId, partner.id).state).toBe("withdrawn");
  await waitForMail(server, partner.email, "Asignación retirada");

  await partnerPage.goto(`/partner/assignments/${requestId}`);
  await expect(partnerPage.getByText(/retiró tu invitación a cotizar/)).toBeVisible();
  await expect(partnerPage.getByText("Información del cliente")).toHaveCount(0);
  await screenshots(partnerPage, "partner-withdrawn", testInfo);
  // The quote form and the requirements file are closed to them too.
  await partnerPage.goto(`/partner/assignments/${requestId}/quote`);
  await expect(partnerPage).toHaveURL(new RegExp(`/partner/assignments/${requestId}$`));
  const file = await partnerPage.request.get(fileLink!);
  expect(file.status()).toBe(404);
});

test("retirar al único socio avisa que nadie cotiza; asignarlo otra vez renueva su invitación", async ({
  server,
  createUser,
  pageAs,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const partner = await createUser({ role: "partner", companyName: "Único Ficticio" });
  const title = `Bridas ${tag()}`;
  const requestId = insertRequest(server, {
    buyer,
    title,
    status: "assigned",
    partners: [partner],
  });
  const [adminPage, partnerPage] = await Promise.all([pageAs(admin), pageAs(partner)]);

  await adminPage.goto(`/admin/quotes/${requestId}`);
  await expect(adminPage.getByTestId("ronda-sin-socios")).toHaveCount(0);
  await adminPage.locator("summary", { hasText: "Retirar asignación de Único Ficticio" }).click();
  await screenshots(adminPage, "admin-withdraw-confirm", testInfo);
  await adminPage.getByRole("button", { name: "Sí, retirar a Único Ficticio" }).click();
  await expect(adminPage.getByText("Asignación retirada. El socio fue notificado.")).toBeVisible();
  await expect(adminPage.getByTestId("ronda-sin-socios")).toContainText(
    "Ningún socio está cotizando esta solicitud.",
  );
  await screenshots(adminPage, "admin-round-without-partners", testInfo);
  // The desk's list counts partners still in the round: the withdrawn one is not.
  await adminPage.goto(`/admin/quotes?q=${encodeURIComponent(title)}`);
  await expect(adminPage.locator('td[data-label="Socios / ofertas"]')).toHaveText(
    "0 / 0Nadie cotiza",
  );
  // The row's next step is assigning, straight to the request's «Asignar socio».
  await adminPage.getByRole("link", { name: `Asignar socios «${title}»` }).click();
  await expect(adminPage).toHaveURL(new RegExp(`/admin/quotes/${requestId}#asignar-socios$`));

  // The withdrawn partner is among the partners the operator may assign, and assigning renews it.
  await adminPage.getByLabel("Asignar socio").selectOption(String(partner.id));
  await adminPage.getByRole("button", { name: "Asignar", exact: true }).click();
  await expect(adminPage.getByText("Socio asignado a la solicitud.")).toBeVisible();
  await expect(adminPage.getByTestId(`asignacion-${partner.id}`)).toContainText(
    "Invitado, sin oferta",
  );
  await expect(adminPage.getByTestId(`asignacion-${partner.id}`)).toContainText(
    "invitado de nuevo",
  );
  await expect(adminPage.getByTestId("ronda-sin-socios")).toHaveCount(0);
  expect(stateOf(server, requestId, partner.id).state).toBe("invited");

  await partnerPage.goto(`/partner/assignments/${requestId}`);
  await expect(partnerPage.getByText("Información del cliente")).toBeVisible();
  await expect(partnerPage.getByRole("link", { name: "Enviar Cotización" })).toBeVisible();

  // Accounts changed elsewhere (Usuarios) read as such on the request: a partner made a buyer…
  server.sql.prepare("UPDATE users SET role = 'buyer' WHERE id = ?").run(partner.id);
  await adminPage.goto(`/admin/quotes/${requestId}`);
  await expect(adminPage.getByTestId(`asignacion-${partner.id}`)).toContainText("Ya no es socio");
  await expect(adminPage.getByTestId("ronda-sin-socios")).toBeVisible();
  server.sql.prepare("UPDATE users SET role = 'partner' WHERE id = ?").run(partner.id);
  // …and deactivated accounts.
  const at = new Date().toISOString();
  server.sql
    .prepare("UPDATE users SET deactivated_at = ? WHERE id IN (?, ?)")
    .run(at, partner.id, buyer.id);
  await adminPage.goto(`/admin/quotes/${requestId}`);
  await expect(adminPage.getByTestId(`asignacion-${partner.id}`)).toContainText(
    "Cuenta desactivada",
  );
  await expect(adminPage.getByTestId("ronda-sin-socios")).toBeVisible();
  await expect(adminPage.getByTestId("comprador-desactivado")).toContainText(
    "La cuenta del comprador está desactivada",
  );
});

test("rechazo → reapertura → nueva oferta → nueva aprobación → pagado", async ({
  server,
  createUser,
  pageAs,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const first = await createUser({ role: "partner", companyName: "Primera Ficticia" });
  const second = await createUser({ role: "partner", companyName: "Segunda Ficticia" });
  const title = `Compresores ${tag()}`;
  const requestId = insertRequest(server, {
    buyer,
    title,
    status: "rejected",
    partners: [first, second],
  });
  const chosen = insertPartnerQuote(server, {
    requestId,
    partner: first,
    amountCents: 500_000,
    selected: true,
  });
  insertPartnerQuote(server, { requestId, partner: second, amountCents: 520_000 });
  insertOfficialQuote(server, { requestId, amountCents: 500_000, partnerQuoteId: chosen.id });
  const [adminPage, secondPage, buyerPage] = await Promise.all([
    pageAs(admin),
    pageAs(second),
    pageAs(buyer),
  ]);

  // 1. The operator reopens the rejected request with a new deadline.
  await adminPage.goto(`/admin/quotes/${requestId}`);
  await adminPage.getByLabel("Plazo de la nueva ronda (UTC)").fill(localValue(24));
  await adminPage.getByRole("button", { name: "Reabrir solicitud" }).click();
  await expect(
    adminPage.getByText("Solicitud reabierta para una nueva ronda. Los socios fueron notificados."),
  ).toBeVisible();
  await expect(adminPage.getByText("Asignado").first()).toBeVisible();
  // The status form shows the new status: submitting it as it stands must not undo the reopen.
  await expect(adminPage.locator("#status")).toHaveValue("assigned");
  // What the buyer rejected stays readable while the new round runs.
  await expect(adminPage.getByTestId("versiones-anteriores")).toContainText("Versión 1");
  await waitForMail(server, second.email, "Solicitud reabierta");
  await waitForMail(server, buyer.email, "Buscamos una nueva cotización");

  // 2. The second partner revises their offer.
  await secondPage.goto(`/partner/assignments/${requestId}`);
  await expect(secondPage.getByText("Oferta enviada").first()).toBeVisible();
  await secondPage.getByRole("link", { name: "Editar Cotización" }).click();
  await fillAmount(secondPage, "4800");
  await secondPage.getByRole("button", { name: /Cotización/ }).click();
  await expect(secondPage).toHaveURL(/\/partner\/assignments$/);

  // 3. The operator approves it and sends it; the old official quote stays as a superseded one.
  await adminPage.goto(`/admin/quotes/${requestId}`);
  await adminPage
    .getByRole("button", { name: "Aprobar la cotización de Segunda Ficticia" })
    .click();
  await expect(
    adminPage.getByText("Cotización del socio aprobada: se creó la cotización oficial."),
  ).toBeVisible();
  await adminPage.getByText("Registrar aprobación del comprador", { exact: true }).first().click();
  await adminPage.getByLabel("Cómo aprobó el comprador").fill("Por correo del comprador");
  await adminPage.getByRole("button", { name: "Registrar aprobación del comprador" }).click();
  await expect(
    adminPage.getByText("Aprobación del comprador registrada. Le avisamos para que pague."),
  ).toBeVisible();
  expect(
    server.sql
      .prepare(
        "SELECT final_amount_cents AS cents, superseded_at IS NOT NULL AS old FROM official_quotes WHERE quote_request_id = ? ORDER BY id",
      )
      .all(requestId),
  ).toEqual([
    { cents: 500_000, old: 1 },
    { cents: 480_000, old: 0 },
  ]);
  await waitForMail(server, first.email, "Oferta no seleccionada");

  // 4. The buyer pays the new amount; the operator confirms; the request is paid.
  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  await expect(buyerPage.getByTestId("monto-oficial")).toHaveText("USD 4,800.00");
  await buyerPage.getByRole("link", { name: "Pagar" }).click();
  await expect(buyerPage.getByLabel(/Monto pagado/)).toHaveValue("4800.00");
  await buyerPage.locator('input[name="file"]').setInputFiles(pdfFile("comprobante.pdf"));
  await buyerPage.getByRole("button", { name: "Enviar comprobante" }).click();
  await expect(buyerPage).toHaveURL(/\/buyer\/payments$/);
  await adminPage.goto("/admin/payments");
  await adminPage.getByRole("button", { name: `Confirmar pago de ${title}` }).click();
  await expect(adminPage.getByText(/Pago confirmado/).first()).toBeVisible();
  expect(
    server.sql.prepare("SELECT status FROM quote_requests WHERE id = ?").get(requestId),
  ).toEqual({ status: "paid" });
  await secondPage.goto("/partner/assignments");
  await screenshots(secondPage, "partner-list-after-round", testInfo);
});
