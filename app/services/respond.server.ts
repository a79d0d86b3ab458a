import type { Submission, SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import type { FailCode, Failure, Result } from "~/domain/result";
import type { Toast } from "~/utils/toast";
import { flashCookie, readFlash } from "./session.server";

/**
 * How every action answers (STYLE "one action pipeline"): a refused form → 400 with its errors; a
 * model's refusal → the not-found page, or its message on the form with 409/423/403; a success →
 * POST/redirect/GET with a toast. Actions never pick status codes or build cookies themselves.
 */

/** What an action returns to its page when a form is refused (read with `serverForm`). */
export interface FormReply {
  result: SubmissionResult<string[]>;
  /** Why a model refused, when it did: lets the page choose a title without reading the message. */
  code?: FailCode;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema's submission
type AnySubmission = Submission<any, string[], any>;

const STATUS: Record<Exclude<FailCode, "not_found">, number> = {
  invalid: 400,
  conflict: 409,
  locked: 423,
  forbidden: 403,
};

/** Thrown for a record that does not exist or is not the caller's: the route's boundary shows it. */
export function notFound(): Response {
  return new Response("No encontrado", { status: 404 });
}

/** The reply for a form: its own validation errors, or a model's refusal placed on it. */
function replyFor(
  submission: AnySubmission,
  failure: Failure | undefined,
  hideFields: string[] | undefined,
): SubmissionResult<string[]> {
  if (!failure) return submission.reply({ hideFields });
  return failure.fieldErrors
    ? submission.reply({ fieldErrors: failure.fieldErrors, hideFields })
    : submission.reply({ formErrors: [failure.message], hideFields });
}

/** 400 with the form's errors and what the person typed (passwords left out via `hideFields`). */
export function invalidForm(
  submission: AnySubmission,
  {
    hideFields,
    formErrors,
    unkeptFile,
  }: { hideFields?: string[]; formErrors?: string[]; unkeptFile?: UnkeptFile } = {},
) {
  const result = formErrors
    ? submission.reply({ formErrors, hideFields })
    : submission.reply({ hideFields });
  return data<FormReply>({ result: withUnkeptFile(result, unkeptFile) }, { status: 400 });
}

/** A file that came with a form sent back, and was not kept: `file` (every upload form's field). */
type UnkeptFile = { originalName: string } | null | undefined;

/** Names the unkept file as the file field's value: FileField asks for it again (without JS). */
export function withUnkeptFile<Result extends SubmissionResult<string[]>>(
  result: Result,
  file: UnkeptFile,
): Result {
  if (!file) return result;
  return { ...result, initialValue: { ...result.initialValue, file: file.originalName } };
}

/** A model's refusal: not_found throws the 404 page; anything else is shown on the form. */
export function refuse(
  submission: AnySubmission,
  failure: Failure,
  { hideFields, unkeptFile }: { hideFields?: string[]; unkeptFile?: UnkeptFile } = {},
) {
  if (failure.code === "not_found") throw notFound();
  return data<FormReply>(
    {
      result: withUnkeptFile(replyFor(submission, failure, hideFields), unkeptFile),
      code: failure.code,
    },
    { status: STATUS[failure.code] },
  );
}

/** POST → redirect → GET with a flash toast for the next page (the one way toasts are made). */
export async function redirectWithToast(
  to: string,
  toast: Toast,
  init: { headers?: HeadersInit; status?: number } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await flashCookie("toast", toast));
  return redirect(to, { headers, status: init.status });
}

export interface Success {
  to: string;
  toast: Toast;
}

/** The whole tail of an action: a refusal on the form, or a redirect with a toast. */
export async function respond<T>(
  result: Result<T>,
  submission: AnySubmission,
  success: (value: T) => Success | Promise<Success>,
  options: { hideFields?: string[]; unkeptFile?: UnkeptFile } = {},
) {
  if (!result.ok) return refuse(submission, result, options);
  const { to, toast } = await success(result.value);
  return redirectWithToast(to, toast);
}

// ---- Forms that post to another route and come back (the admin request detail)

/** Values longer than this are not flashed back (a cookie holds about 4 KB). */
const MAX_FLASHED_VALUE = 500;

/**
 * The answer of an action route whose form lives on another page (`back`): a success redirects
 * there with a toast; a refusal redirects there too, with the form's errors in a one-minute flash
 * cookie that only `back` reads (`readFormFlash`). The page then renders the message next to the
 * field, with JavaScript or without it.
 *
 * Why a flash and not a rendered page: the action routes are POST-only and a GET of them redirects
 * to the detail. After a refused document POST, Remix would run the action route's loader, which
 * redirects anyway; rendering the detail under the action's URL would also make a reload a GET of
 * that URL. Redirecting back keeps one URL per page and one code path for both.
 */
export async function respondBack<T>(
  back: string,
  form: string,
  submission: AnySubmission,
  result: Result<T>,
  success: (value: T) => Toast,
): Promise<Response> {
  if (result.ok) return redirectWithToast(back, success(result.value));
  if (result.code === "not_found") throw notFound();
  return flashBack(back, form, replyFor(submission, result, undefined), result.code);
}

/** The form's own validation errors, flashed back to `back` (see respondBack). */
export function invalidBack(back: string, form: string, submission: AnySubmission) {
  return flashBack(back, form, replyFor(submission, undefined, undefined));
}

async function flashBack(
  back: string,
  form: string,
  result: SubmissionResult<string[]>,
  code?: FailCode,
): Promise<Response> {
  const initialValue = Object.fromEntries(
    Object.entries(result.initialValue ?? {}).filter(
      ([, value]) => typeof value === "string" && value.length <= MAX_FLASHED_VALUE,
    ),
  );
  const cookie = await flashForm(back, form, { ...result, initialValue }, code);
  return redirect(back, { headers: { "Set-Cookie": cookie } });
}

/** The Set-Cookie that flashes a form's reply to the page at `to` (read with readFormFlash). */
export function flashForm(
  to: string,
  form: string,
  result: SubmissionResult<string[]>,
  code?: FailCode,
): Promise<string> {
  return flashCookie("form", { path: to.split(/[?#]/)[0]!, form, result, code });
}

/** The refused form flashed for this page, if any, and the Set-Cookie that clears it. */
export async function readFormFlash(request: Request) {
  const { value, setCookie } = await readFlash(request, "form");
  const path = new URL(request.url).pathname;
  return { flashed: value && value.path === path ? value : null, setCookie };
}

/** The page a request was made from (path and query), to go back to after an action. */
export function samePage(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  url.searchParams.delete("_data");
  return url.pathname + url.search;
}
