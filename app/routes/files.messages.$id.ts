import { messageFileFor } from "~/models/file-access.server";
import { fileLoader } from "~/models/file-route.server";

/** A message's attachment: the participants of its thread (operators, its buyer or its partner). */
export const loader = fileLoader(messageFileFor);
