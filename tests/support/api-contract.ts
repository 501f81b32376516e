import { API_OPERATIONS } from '~/services/api-operations';
import { ApiErrorSchema, errorStatuses, type ApiOperation } from '~/services/http/api-contract';

// Holds every answer an API test receives against the documented contract
// (services/api-operations.ts): the path and method are documented, the status is one the
// operation lists, and the body validates against that status's schema. callRoute runs it on
// every call under /api, so the existing API tests check the OpenAPI document as they go.

const templates = API_OPERATIONS.map((op) => ({
  op,
  pattern: new RegExp(`^${op.path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

export function operationFor(method: string, pathname: string): ApiOperation | undefined {
  const m = method.toLowerCase();
  return templates.find((t) => t.op.method === m && t.pattern.test(pathname))?.op;
}

function issues(error: { issues: { path: (string | number)[]; message: string }[] }): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');
}

/** Why an answer breaks the contract, or null when it keeps it. */
export function contractProblem(method: string, pathname: string, status: number, contentType: string, body: unknown): string | null {
  const where = `${method} ${pathname} → ${status}`;
  const pathKnown = templates.some((t) => t.pattern.test(pathname));
  // A method the path does not have is refused with 405 {"detail"}: nothing else to document.
  if (status === 405 && pathKnown) return ApiErrorSchema.safeParse(body).success ? null : `${where}: not an error body`;
  const op = operationFor(method, pathname);
  if (!op) return `${where}: no such operation in the API contract`;
  if (status >= 400) {
    if (!errorStatuses(op).includes(status)) return `${where}: status not documented (documented: ${errorStatuses(op).join(', ')})`;
    const parsed = ApiErrorSchema.safeParse(body);
    return parsed.success ? null : `${where}: error body does not fit {"detail"}: ${issues(parsed.error)}`;
  }
  const answer = op.answers[status as keyof ApiOperation['answers']];
  if (!answer) return `${where}: status not documented (documented: ${Object.keys(op.answers).join(', ')})`;
  if (contentType.startsWith('text/csv')) return answer.csv ? null : `${where}: CSV not documented`;
  if (!answer.json) return body === undefined || body === null || body === '' ? null : `${where}: documented without a body`;
  const parsed = answer.json.safeParse(body);
  return parsed.success ? null : `${where}: answer does not fit its schema: ${issues(parsed.error)}`;
}
