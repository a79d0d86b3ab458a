import { requestFileFor } from "~/models/file-access.server";
import { fileLoader } from "~/models/file-route.server";

/** A request's requirements file: its buyer, the partners assigned to it, admins. */
export const loader = fileLoader(requestFileFor);
