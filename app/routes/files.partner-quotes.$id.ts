import { partnerQuoteFileFor } from "~/models/file-access.server";
import { fileLoader } from "~/models/file-route.server";

/** A partner's quote file: that partner and admins. */
export const loader = fileLoader(partnerQuoteFileFor);
