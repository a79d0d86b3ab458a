import { MAX_UPLOAD_BYTES } from "./files";

/**
 * Total request body caps (DECISIONS §5). A form without a file never needs more than a few KB;
 * a form with a file may carry one 10 MB file plus its fields.
 */
export const MAX_URLENCODED_BYTES = 256 * 1024;
export const MAX_MULTIPART_BYTES = MAX_UPLOAD_BYTES + 1024 * 1024;
/** One text field of a multipart form (descriptions are at most a few thousand characters). */
export const MAX_TEXT_FIELD_BYTES = 64 * 1024;
/** Fields and parts per form: far above any real form, low enough to bound the work. */
export const MAX_FIELDS = 200;
