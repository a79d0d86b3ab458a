/** The platform currencies an operator may choose (no zod here: the settings page ships this). */
export const SUPPORTED_CURRENCIES = ["USD", "MXN", "EUR", "COP", "CLP", "PEN", "ARS"] as const;

export const CURRENCY_LABELS: Record<(typeof SUPPORTED_CURRENCIES)[number], string> = {
  USD: "USD · Dólar estadounidense",
  MXN: "MXN · Peso mexicano",
  EUR: "EUR · Euro",
  COP: "COP · Peso colombiano",
  CLP: "CLP · Peso chileno",
  PEN: "PEN · Sol peruano",
  ARS: "ARS · Peso argentino",
};
