/** Outline icons drawn inline (no icon font or client library; nothing for the CSP to block). */
const PATHS = {
  check: "M5 13l4 4L19 7",
  clock: "M12 7v5l3 3M21 12a9 9 0 11-18 0 9 9 0 0118 0z",
  shield: "M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6l8-3zM9 12l2 2 4-4",
  card: "M3 7h18v10H3zM3 10h18M7 14h3",
  document: "M7 3h7l5 5v13H7zM14 3v5h5M10 13h6M10 17h6",
  gift: "M4 11h16v10H4zM2 7h20v4H2zM12 7v14M12 7c-2-4-6-4-6-1s6 1 6 1zm0 0c2-4 6-4 6-1s-6 1-6 1z",
  support: "M4 14v-2a8 8 0 0116 0v2M4 14h3v5H4zM17 14h3v5h-3z",
  upload: "M12 16V4m0 0l-4 4m4-4l4 4M4 16v4h16v-4",
  inbox: "M4 13l2-8h12l2 8M4 13v6h16v-6M4 13h5l1 2h4l1-2h5",
  trophy: "M8 4h8v5a4 4 0 01-8 0zM8 6H4c0 3 2 4 4 4M16 6h4c0 3-2 4-4 4M12 13v4M8 21h8M9 17h6v4H9z",
  oil: "M12 3c3 4 6 7.5 6 11a6 6 0 01-12 0c0-3.5 3-7 6-11z",
  building: "M3 21h18M5 21V10l7-5 7 5v11M9 21v-6h6v6M12 10h.01",
  car: "M5 16h14M5 16v2h2v-2M17 16v2h2v-2M4 16l1.5-5A2 2 0 017.4 9.5h9.2a2 2 0 011.9 1.5L20 16M7 13h.01M17 13h.01",
  cart: "M3 4h2l2.4 11h10.2L20 8H6.3M9 20a1 1 0 100-2 1 1 0 000 2zm8 0a1 1 0 100-2 1 1 0 000 2z",
  chart: "M4 20V10M10 20V4M16 20v-7M22 20H2",
  bulb: "M9 18h6M10 21h4M12 3a6 6 0 00-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0012 3z",
  leaf: "M5 19c0-9 6-14 15-14 0 9-5 15-14 15M5 19l8-8",
  handshake: "M3 11l4-4 4 2 3-2 7 5-3 3M7 7l-4 8 5 4 3-2M11 17l2 2 2-2M14 15l2 2",
  users:
    "M16 19v-1a4 4 0 00-4-4H6a4 4 0 00-4 4v1M9 10a3 3 0 100-6 3 3 0 000 6zM22 19v-1a4 4 0 00-3-3.9M16 4.1a3 3 0 010 5.8",
  telescope: "M3 12l14-6 2 5-14 6zM10 15l-3 6M12 14l3 7",
  refresh: "M20 11a8 8 0 00-14.9-3M4 4v4h4M4 13a8 8 0 0014.9 3M20 20v-4h-4",
  box: "M21 8l-9-5-9 5 9 5 9-5zM3 8v8l9 5 9-5V8M12 13v8",
  mail: "M3 6h18v12H3zM3 6l9 7 9-7",
  phone: "M5 4h4l2 5-3 2a11 11 0 005 5l2-3 5 2v4a2 2 0 01-2 2A16 16 0 013 6a2 2 0 012-2z",
  pin: "M12 21s7-6.2 7-12a7 7 0 00-14 0c0 5.8 7 12 7 12zM12 11a2 2 0 100-4 2 2 0 000 4z",
  briefcase: "M3 8h18v12H3zM8 8V5h8v3M3 13h18",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className = "h-6 w-6" }: { name: IconName; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}

/** Five fixed stars (SPEC §2) with a text equivalent for screen readers. */
export function FiveStars() {
  return (
    <span role="img" aria-label="5 de 5 estrellas" className="flex gap-0.5 text-amber-600">
      {[0, 1, 2, 3, 4].map((i) => (
        <svg key={i} aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
          <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z" />
        </svg>
      ))}
    </span>
  );
}
