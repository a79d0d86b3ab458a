/** SPEC §9 loyalty tiers, by points ever earned (redeeming never demotes a buyer). */
export const TIERS = [
  { name: "Bronce", min: 0 },
  { name: "Plata", min: 1000 },
  { name: "Oro", min: 3000 },
  { name: "Platino", min: 5000 },
] as const;

type Tier = (typeof TIERS)[number];

interface TierStatus {
  current: Tier;
  next: Tier | null;
  /** Percentage (0-100, whole) of the way from the current tier to the next. */
  progress: number;
  pointsToNext: number;
}

export function tierFor(earnedPoints: number): TierStatus {
  const points = Math.max(0, Math.floor(earnedPoints));
  let index = 0;
  for (let i = 0; i < TIERS.length; i++) if (points >= TIERS[i]!.min) index = i;
  const current = TIERS[index]!;
  const next = TIERS[index + 1] ?? null;
  if (!next) return { current, next, progress: 100, pointsToNext: 0 };
  const progress = Math.floor(((points - current.min) / (next.min - current.min)) * 100);
  return { current, next, progress, pointsToNext: next.min - points };
}
