/**
 * The colour family a status is shown in. Pure data, so the domain can say "a paid request reads
 * as green" without knowing how a badge draws it; `components/ui/Badge` maps each tone to classes.
 */
export type Tone = "gray" | "blue" | "yellow" | "green" | "red" | "purple";
