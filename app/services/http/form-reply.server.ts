import type { Submission, SubmissionResult } from '@conform-to/react';
import { data } from '@remix-run/node';
import { isDomainError } from './errors';

// The one form pattern: validation failures and domain errors go back to the form with a 4xx
// and the typed values (except passwords), so nothing is lost and nothing needs JavaScript.

const SECRET_FIELDS = ['password', 'password_confirmation', 'current_password'];

export function invalidForm<T>(submission: Submission<T>, status = 400) {
  return data(submission.reply({ hideFields: SECRET_FIELDS }) as SubmissionResult<string[]>, { status });
}

/** Maps a DomainError thrown by a service onto the form; anything else is rethrown. */
export function formFailure<T>(submission: Submission<T>, error: unknown) {
  if (!isDomainError(error)) throw error;
  const reply = submission.reply({
    formErrors: [error.detail],
    fieldErrors: error.fields,
    hideFields: SECRET_FIELDS,
  }) as SubmissionResult<string[]>;
  return data(reply, { status: error.status, headers: error.headers });
}
