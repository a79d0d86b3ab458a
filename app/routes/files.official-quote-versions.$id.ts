import { officialQuoteVersionPdfFor } from "~/models/file-access.server";
import { fileLoader } from "~/models/file-route.server";

/** The PDF of official quote version :id (any version of a request): its buyer and admins. */
export const loader = fileLoader(officialQuoteVersionPdfFor);
