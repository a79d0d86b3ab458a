export interface NoticeData {
  tone: "warning" | "error";
  title: string;
  message: string;
}

const TONES = {
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-800",
};

/** The answer of a refused action, shown on the page the action re-rendered (no JS needed). */
export function Notice({ notice }: { notice: NoticeData }) {
  return (
    <div
      role="alert"
      data-testid="notice"
      className={`mt-4 rounded-md border p-3 text-sm ${TONES[notice.tone]}`}
    >
      <p className="font-semibold">{notice.title}</p>
      <p>{notice.message}</p>
    </div>
  );
}
