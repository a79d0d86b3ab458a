import { paymentReceiptFor } from "~/models/file-access.server";
import { fileLoader } from "~/models/file-route.server";

/** The receipt PDF of confirmed payment :id: its buyer and admins. */
export const loader = fileLoader(paymentReceiptFor);
