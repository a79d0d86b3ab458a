/**
 * The demo story: requests in every status, offers, official quotes with their PDFs, payments and a
 * reward, written through the same model functions (and the same storage steps) the app's actions
 * use, so history, notifications, queued mail, summaries and the loyalty ledger are exactly what
 * real use leaves behind.
 */
import type { PaymentMethod } from "../db/schema";
import type { DB } from "../app/services/db.server";
import type { Result } from "../app/domain/result";
import type { PublicUser } from "../app/models/user.server";
import { officialQuotePdfFor } from "../app/models/file-access.server";
import { listRewards, redeemReward } from "../app/models/loyalty.server";
import { confirmPayment, rejectPayment, submitPaymentProof } from "../app/models/payment.server";
import {
  approvePartnerQuote,
  assignPartner,
  buyerApproveQuote,
  buyerRejectQuote,
  createManualOfficialQuote,
  createQuoteRequest,
  recordBuyerApproval,
  submitPartnerQuote,
} from "../app/models/quote-lifecycle.server";
import { cancelRequest, editRequest } from "../app/models/request-changes.server";
import { dayOf } from "../app/domain/request-dates";
import { addDays, parseOffer, utcDay } from "../app/domain/offer";
import { storeUpload } from "../app/services/storage.server";
import { stagedDemoPdf } from "./demo-files";

/**
 * A demo offer as a partner would write it: the goods and the freight as two lines (their sum is
 * `units`, so the story's payments stay as written), the lead time the notes mention, valid for
 * three weeks, no tax (the demo's tax setting is 0).
 */
function demoOffer(units: number, notes: string) {
  const freight = Math.round(units * 0.04);
  const days = /(\d+) días/.exec(notes)?.[1] ?? "";
  const parsed = parseOffer(
    {
      items: [
        {
          description: "Suministro según los requerimientos",
          quantity: "1",
          unit: "lote",
          unit_price: String(units - freight),
        },
        {
          description: "Flete y entrega en sitio",
          quantity: "1",
          unit: "servicio",
          unit_price: String(freight),
        },
      ],
      amount: "",
      tax_rate: "0",
      lead_time_days: days,
      valid_until: addDays(utcDay(), 21),
      payment_terms: "Transferencia a 15 días de la factura",
    },
    { today: utcDay(), defaultTaxRate: 0 },
  );
  if (!parsed.ok)
    throw new Error(`Oferta de demostración inválida: ${JSON.stringify(parsed.errors)}`);
  return parsed.offer;
}

export interface DemoCast {
  admin: PublicUser;
  /** The buyer of the README (an oil company): one request in every status. */
  buyer: PublicUser;
  partner: PublicUser;
  partner2: PublicUser;
  government: PublicUser;
  dealer: PublicUser;
  supermarket: PublicUser;
}

/** The reward the demo buyer has already redeemed. */
export const DEMO_REWARD = "Consultoría Gratuita";

/** A step of the story that fails is a bug in the story (or a changed rule): stop loudly. */
function must<T>(step: string, result: Result<T>): T {
  if (!result.ok) throw new Error(`Historia de demostración, «${step}»: ${result.message}`);
  return result.value;
}

const money = (units: number) => Math.round(units * 100);

export async function writeDemoStory(database: DB, cast: DemoCast): Promise<void> {
  const { admin, partner, partner2 } = cast;
  const adminId = admin.id;

  const newRequest = async (
    buyer: PublicUser,
    title: string,
    description: string,
    fileName: string,
  ) => {
    const staged = await stagedDemoPdf(fileName, `Requerimientos: ${title}`, [
      `Comprador: ${buyer.company_name}`,
      description,
    ]);
    const { id } = must(
      title,
      await storeUpload(staged, (file) =>
        createQuoteRequest(database, { buyerId: buyer.id, title, description, file: file! }),
      ),
    );
    return id;
  };

  const assign = async (requestId: number, ...partners: PublicUser[]) => {
    for (const p of partners) {
      must("asignar socio", await assignPartner(database, { requestId, partnerId: p.id, adminId }));
    }
  };

  /** The partner's offer, with its proposal PDF; returns the partner quote's id. */
  const offer = async (requestId: number, by: PublicUser, units: number, notes: string) => {
    const staged = await stagedDemoPdf(`propuesta-${requestId}.pdf`, "Propuesta comercial", [
      `Proveedor: ${by.company_name}`,
      `Solicitud N.º ${requestId}`,
      `Importe: ${units.toLocaleString("es-MX")} USD`,
      notes,
    ]);
    must(
      "cotización de socio",
      await storeUpload(
        staged,
        (file) =>
          submitPartnerQuote(database, {
            requestId,
            partnerId: by.id,
            offer: demoOffer(units, notes),
            notes,
            file,
          }),
        { replaced: (saved) => saved.replacedFileKey },
      ),
    );
    const { id } = await database
      .selectFrom("partner_quotes")
      .select("id")
      .where("quote_request_id", "=", requestId)
      .where("partner_id", "=", by.id)
      .executeTakeFirstOrThrow();
    return id;
  };

  /** The official quote's PDF, generated and stored as on its first download. */
  const officialPdf = async (requestId: number) => {
    if (!(await officialQuotePdfFor(database, admin, requestId)))
      throw new Error(`Historia de demostración: sin PDF oficial para la solicitud ${requestId}`);
  };

  const approveOffer = async (requestId: number, partnerQuoteId: number) => {
    must(
      "aprobar cotización de socio",
      await approvePartnerQuote(database, { requestId, partnerQuoteId, adminId }),
    );
    await officialPdf(requestId);
  };

  const recordApproval = async (requestId: number) =>
    must(
      "registrar la aprobación del comprador",
      await recordBuyerApproval(database, {
        requestId,
        adminId,
        note: "Aprobó por correo electrónico al equipo",
      }),
    );

  /** The buyer's proof of payment (a transfer receipt PDF); returns the payment's id. */
  const payProof = async (
    buyer: PublicUser,
    requestId: number,
    units: number,
    reference: string,
    method: PaymentMethod = "transfer",
  ) => {
    const staged = await stagedDemoPdf(`comprobante-${reference}.pdf`, "Comprobante de pago", [
      `Ordenante: ${buyer.company_name}`,
      `Beneficiario: CotizaHub`,
      `Importe: ${units.toLocaleString("es-MX")} USD`,
      `Referencia: ${reference}`,
    ]);
    const { paymentId } = must(
      "comprobante de pago",
      await storeUpload(
        staged,
        (file) =>
          submitPaymentProof(database, {
            requestId,
            buyerId: buyer.id,
            amountCents: money(units),
            method,
            proof: file!,
          }),
        { replaced: (saved) => saved.replacedProofKey },
      ),
    );
    return paymentId;
  };

  // ---- The demo buyer (an oil company): one request in every status.
  const buyer = cast.buyer;

  // pendiente: nobody has looked at it yet.
  await newRequest(
    buyer,
    "Válvulas de compuerta de 4 pulgadas para el oleoducto norte",
    "120 válvulas de compuerta de acero al carbono, clase 300, bridadas. Entrega en la estación de bombeo Ficticia Norte",
    "requerimientos-valvulas.pdf",
  );

  // asignado: both partners invited, one has already sent an offer.
  const ppe = await newRequest(
    buyer,
    "Equipo de protección personal para la refinería Demo",
    "2.000 kits de EPP (casco, gafas, guantes de nitrilo y botas dieléctricas) en tallas variadas. Entrega parcial mensual durante seis meses",
    "requerimientos-epp.pdf",
  );
  await assign(ppe, partner, partner2);
  await offer(ppe, partner, 17_980, "Entrega del primer lote en 10 días hábiles.");

  // cotizado: two offers with different amounts; the official quote waits for the buyer.
  const pipes = await newRequest(
    buyer,
    "Tubería de acero al carbono para el campo Ficticio-3",
    "800 tramos de tubería API 5L X52 de 6 pulgadas, cédula 40. Incluir certificado de calidad del fabricante",
    "requerimientos-tuberia.pdf",
  );
  await assign(pipes, partner, partner2);
  await offer(pipes, partner, 103_920, "Material en existencia; entrega en 15 días.");
  const pipesOffer = await offer(
    pipes,
    partner2,
    98_500,
    "Entrega en 25 días; flete incluido hasta el campo.",
  );
  await approveOffer(pipes, pipesOffer);

  // aprobado: official quote sent to the buyer, waiting for the payment.
  const trucks = await newRequest(
    buyer,
    "Camionetas 4x4 para supervisión de pozos",
    "6 camionetas doble cabina 4x4 diésel, con barra antivuelco y kit de emergencia. Garantía mínima de 3 años",
    "requerimientos-camionetas.pdf",
  );
  await assign(trucks, partner2);
  await approveOffer(
    trucks,
    await offer(trucks, partner2, 207_000, "Unidades modelo del año; entrega en 30 días."),
  );
  await recordApproval(trucks);

  // pagado: the buyer approved, a first receipt was refused, the second was confirmed.
  const tyres = await newRequest(
    buyer,
    "Neumáticos para la flota de camiones cisterna",
    "240 neumáticos radiales 295/80 R22.5 para camiones cisterna. Incluye montaje y balanceo en nuestra base logística",
    "requerimientos-neumaticos.pdf",
  );
  await assign(tyres, partner, partner2);
  await offer(tyres, partner, 152_400, "Marca premium; montaje en 5 días.");
  const tyresOffer = await offer(tyres, partner2, 148_800, "Montaje y balanceo incluidos.");
  await approveOffer(tyres, tyresOffer);
  must(
    "aprobar (comprador)",
    // The first version: the story issues no other before approving.
    await buyerApproveQuote(database, { requestId: tyres, buyerId: buyer.id, version: 1 }),
  );
  must(
    "rechazar comprobante",
    await rejectPayment(database, {
      paymentId: await payProof(buyer, tyres, 148_800, "TRF-0001"),
      adminId,
      reason: "El comprobante no muestra el número de operación",
    }),
  );
  must(
    "confirmar pago",
    await confirmPayment(database, {
      paymentId: await payProof(buyer, tyres, 148_800, "TRF-0002"),
      adminId,
    }),
  );

  // rechazado: a manual official quote the buyer turned down, with the reason.
  const tanks = await newRequest(
    buyer,
    "Mantenimiento de tanques de almacenamiento",
    "Limpieza, inspección y pintura interior de 3 tanques de 10.000 barriles. Trabajo en la parada de planta de marzo",
    "requerimientos-tanques.pdf",
  );
  await assign(tanks, partner);
  must(
    "cotización oficial manual",
    await createManualOfficialQuote(database, {
      requestId: tanks,
      amountCents: money(58_000),
      adminId,
    }),
  );
  await officialPdf(tanks);
  must(
    "rechazar (comprador)",
    await buyerRejectQuote(database, {
      requestId: tanks,
      buyerId: buyer.id,
      reason: "El plazo de ejecución no coincide con nuestra parada de planta de marzo.",
    }),
  );

  // cancelado: the buyer edited it before any offer (a needed-by date), then called it off.
  const catering = await newRequest(
    buyer,
    "Servicio de catering para la parada de planta",
    "Desayuno y comida para 150 personas durante los 12 días de la parada de planta, en dos turnos",
    "requerimientos-catering.pdf",
  );
  await assign(catering, partner2);
  const { quote_deadline } = await database
    .selectFrom("quote_requests")
    .select("quote_deadline")
    .where("id", "=", catering)
    .executeTakeFirstOrThrow();
  must(
    "editar (comprador)",
    await editRequest(database, {
      requestId: catering,
      buyerId: buyer.id,
      title: "Servicio de catering para la parada de planta",
      description:
        "Desayuno, comida y cena para 150 personas durante los 12 días de la parada de planta, en dos turnos",
      quoteDeadline: quote_deadline,
      neededBy: dayOf(new Date(Date.parse(quote_deadline) + 30 * 86_400_000)),
      file: null,
    }),
  );
  must(
    "cancelar (comprador)",
    await cancelRequest(database, {
      requestId: catering,
      buyerId: buyer.id,
      reason:
        "La parada de planta se pospuso al próximo año; la solicitaremos de nuevo con las nuevas fechas.",
    }),
  );

  // aprobado, with a receipt waiting for the administrator in /admin/payments.
  const laptops = await newRequest(
    buyer,
    "Portátiles empresariales para la oficina central",
    "40 portátiles de 14 pulgadas, 16 GB de RAM y 512 GB SSD, con garantía en sitio. Imagen corporativa instalada",
    "requerimientos-portatiles.pdf",
  );
  await assign(laptops, partner);
  await approveOffer(
    laptops,
    await offer(laptops, partner, 38_000, "Entrega en 7 días con la imagen instalada."),
  );
  await recordApproval(laptops);
  await payProof(buyer, laptops, 38_000, "TRF-0003");

  // The points of the paid request, partly spent on a reward.
  const reward = (await listRewards(database)).find((r) => r.name === DEMO_REWARD);
  if (!reward) throw new Error(`Historia de demostración: falta la recompensa «${DEMO_REWARD}»`);
  must(
    "canjear recompensa",
    await redeemReward(database, { buyerId: buyer.id, rewardId: reward.id }),
  );

  // ---- The other buyers: a government, a vehicle dealer and a supermarket chain.
  const uniforms = await newRequest(
    cast.government,
    "Uniformes para el personal de protección civil",
    "350 uniformes de alta visibilidad con logotipo municipal bordado. Tallas según listado adjunto",
    "requerimientos-uniformes.pdf",
  );
  await assign(uniforms, partner);
  await offer(uniforms, partner, 24_500, "Bordado incluido; entrega en 20 días.");

  await newRequest(
    cast.dealer,
    "Juegos de neumáticos para vehículos de exhibición",
    "30 juegos de neumáticos 225/55 R17 para las unidades de exhibición de nuestras dos sucursales",
    "requerimientos-exhibicion.pdf",
  );

  const shelves = await newRequest(
    cast.supermarket,
    "Góndolas para 12 sucursales",
    "45 góndolas metálicas de doble cara, 1,80 m de alto, con 5 niveles. Instalación nocturna",
    "requerimientos-gondolas.pdf",
  );
  await assign(shelves, partner2);
  await approveOffer(
    shelves,
    await offer(shelves, partner2, 18_450, "Instalación nocturna incluida."),
  );
  await recordApproval(shelves);
  must(
    "confirmar pago",
    await confirmPayment(database, {
      paymentId: await payProof(cast.supermarket, shelves, 18_450, "SPR-2211"),
      adminId,
    }),
  );
}
