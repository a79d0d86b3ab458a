import { officialQuotePdfFor } from "~/models/file-access.server";
import { fileLoader } from "~/models/file-route.server";

/** The official quote PDF of request :id: its buyer and admins. */
export const loader = fileLoader(officialQuotePdfFor);
