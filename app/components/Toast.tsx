import type { Toast as ToastData } from "~/utils/toast";

const STYLES: Record<ToastData["type"], string> = {
  success: "border-green-300 bg-green-50 text-green-900",
  info: "border-blue-300 bg-blue-50 text-blue-900",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
};

/** The flash message of the previous action, rendered by the server (visible without JavaScript). */
export function Toast({ toast }: { toast: ToastData }) {
  return (
    <div
      role={toast.type === "error" ? "alert" : "status"}
      data-testid="toast"
      className={`mx-auto mt-4 max-w-3xl rounded-lg border px-4 py-3 shadow-sm ${STYLES[toast.type]}`}
    >
      <p className="font-semibold">{toast.title}</p>
      {toast.description ? <p className="text-sm">{toast.description}</p> : null}
    </div>
  );
}
