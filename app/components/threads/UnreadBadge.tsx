import { Badge } from "~/components/ui/Badge";

/** A list row's unread messages (none: nothing shown). */
export function UnreadBadge({ count }: { count: number | undefined }) {
  if (!count) return null;
  return (
    <span data-testid="sin-leer">
      <Badge tone="blue">{count === 1 ? "1 mensaje sin leer" : `${count} mensajes sin leer`}</Badge>
    </span>
  );
}
