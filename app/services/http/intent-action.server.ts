import { parseWithZod } from '@conform-to/zod';
import { redirect, type data } from '@remix-run/node';
import { z, type ZodTypeAny } from 'zod';
import { badRequest, isDomainError } from './errors';
import { formFailure, invalidForm } from './form-reply.server';
import { pageError } from './page-errors';
import { readPageForm } from './request-body.server';

// The one way a page with several forms handles a POST: each form names its `intent`, each
// intent has one zod schema and one handler, and every outcome has one answer:
// - a prompt or confirm dialog closed with Cancel (it posts cancelled=true): back, nothing changed;
// - an intent the page does not have, or values its schema refuses: 400 with the form's errors
//   (a Conform reply, so the page shows them next to the form, typed values kept);
// - a thing that does not exist or is not the caller's (a 404 or 403 DomainError): the error
//   page, drawn in the layout;
// - any other refusal by a service (409 "already exists", 422 "name too long"): back to the form
//   with the message, or, for buttons that have no form of their own to show it, the page's
//   error modal after a redirect (post/redirect/get).

/** A redirect, a form's errors, or data for a fetcher that answers in place (no navigation). */
export type Answer = Response | ReturnType<typeof invalidForm> | ReturnType<typeof data<unknown>>;

export type IntentHandler = {
  schema: ZodTypeAny;
  run: (value: never) => Promise<Answer> | Answer;
  /** Where a service's refusal is shown: on the form (default) or in the page's error modal. */
  refusals: 'form' | 'modal';
};

/** One intent: its schema (without the `intent` field itself) and what it does with the parsed values. */
export function intent<S extends ZodTypeAny>(
  schema: S,
  run: (value: z.infer<S>) => Promise<Answer> | Answer,
  options: { refusals?: 'form' | 'modal' } = {},
): IntentHandler {
  return { schema, run: run as IntentHandler['run'], refusals: options.refusals ?? 'form' };
}

/** For intents that carry no values beyond `intent`. */
export const NO_VALUES = z.object({});

export type IntentActionOptions = {
  intents: Readonly<Record<string, IntentHandler>>;
  /** Where a cancelled prompt or confirm dialog goes back to. */
  cancelTo: string;
  /** The page's error modal for refusals of `refusals: 'modal'` intents (a redirect with a flash). */
  refusalModal?: (detail: string) => Promise<Response>;
};

export function unknownIntentMessage(name: string): string {
  return name
    ? `This page has no action “${name.slice(0, 40)}”. Reload the page and try again.`
    : 'The form did not say what to do. Reload the page and try again.';
}

const IntentOnly = z.object({ intent: z.string().optional() });

/** Handles the POST of `request` (or its form, when the page read it itself, e.g. with a size cap). */
export async function intentAction(request: Request | FormData, options: IntentActionOptions): Promise<Answer> {
  const formData = request instanceof FormData ? request : await readPageForm(request);
  if (formData.get('cancelled') === 'true') return redirect(options.cancelTo);
  const name = formData.get('intent');
  const handler = typeof name === 'string' && Object.hasOwn(options.intents, name) ? options.intents[name] : undefined;
  if (!handler) {
    const submission = parseWithZod(formData, { schema: IntentOnly });
    return formFailure(submission, badRequest(unknownIntentMessage(typeof name === 'string' ? name : '')));
  }
  const submission = parseWithZod(formData, { schema: handler.schema });
  if (submission.status !== 'success') return invalidForm(submission);
  try {
    return await handler.run(submission.value as never);
  } catch (e) {
    if (!isDomainError(e) || e.status === 404 || e.status === 403) pageError(e);
    if (handler.refusals === 'modal' && options.refusalModal) return options.refusalModal(e.detail);
    return formFailure(submission, e);
  }
}
