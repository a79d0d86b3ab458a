export interface Toast {
  type: "success" | "error" | "info" | "warning";
  title: string;
  description?: string;
}
