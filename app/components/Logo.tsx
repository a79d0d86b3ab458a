export function Logo() {
  return (
    <span className="flex items-center gap-2 whitespace-nowrap text-base font-extrabold tracking-tight text-brand-800 sm:text-lg">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7">
        <rect width="32" height="32" rx="8" fill="#1e40af" />
        <path d="M9 17l4 4 10-10" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" />
      </svg>
      {/* Below 360 px the header's two buttons need the room: the mark alone stays. */}
      <span className="max-[359px]:sr-only">CotizaHub</span>
    </span>
  );
}
