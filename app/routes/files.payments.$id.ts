import { paymentProofFor } from "~/models/file-access.server";
import { fileLoader } from "~/models/file-route.server";

/** A payment proof: its buyer and admins. */
export const loader = fileLoader(paymentProofFor);
