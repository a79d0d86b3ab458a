import { createContext, useContext } from "react";

/** The per-request CSP nonce, provided by entry.server; empty in the browser (not needed there). */
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
