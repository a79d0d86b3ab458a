import type { FailCode } from "~/domain/result";
import type { SubmissionResult } from "@conform-to/react";

/**
 * The answer of a refused action, shown on the page the action re-rendered (no JS needed). A
 * conflict (someone or something got there first, e.g. a partner already assigned) is a notice
 * titled "Aviso" (SPEC §8); anything else an error, its message after `failed`.
 */
export function Notice({
  reply,
  failed,
}: {
  reply: { result: SubmissionResult<string[]>; code?: FailCode } | undefined;
  /** What could not be done, e.g. "No se pudo actualizar el rol." */
  failed: string;
}) {
  const messages = Object.values(reply?.result.error ?? {}).flatMap((errors) => errors ?? []);
  if (!reply || messages.length === 0) return null;
  const warning = reply.code === "conflict";
  return (
    <div
      role="alert"
      data-testid="notice"
      className={`mt-4 rounded-md border p-3 text-sm ${warning ? "border-amber-300 bg-amber-50 text-amber-900" : "border-red-300 bg-red-50 text-red-800"}`}
    >
      <p className="font-semibold">{warning ? "Aviso" : "Error"}</p>
      <p>{warning ? messages.join(" ") : `${failed} ${messages.join(" ")}`}</p>
    </div>
  );
}
