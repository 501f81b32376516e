import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { ApiErrorSchema, errorStatuses, type ApiOperation } from './api-contract';

// The OpenAPI 3.1 document of a list of operations, generated from their zod schemas.

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed request (unreadable body or form)',
  401: 'No valid token, or none where guest mode is off (for the webhook: no valid signature)',
  403: 'The access rules refuse this caller (a guest, or an account without access): `detail` says what is needed',
  404: 'Not found, or not yours',
  405: 'Method not allowed',
  409: 'Conflicts with the current state',
  413: 'Body too large',
  415: 'Unsupported media type',
  422: 'Invalid parameters or body: `errors` names the fields',
  429: 'Too many attempts: wait for Retry-After seconds',
  502: 'The payment provider answered with an error',
  503: 'Unavailable for now: no market data yet, or the payment provider cannot be reached',
};

const CSV = { 'text/csv': { schema: { type: 'string' as const, description: 'The same table as CSV (?format=csv)' } } };

function answers(op: ApiOperation): Record<string, ResponseConfig> {
  const out: Record<string, ResponseConfig> = {};
  for (const [status, answer] of Object.entries(op.answers)) {
    if (!answer) continue;
    const content = {
      ...(answer.json ? { 'application/json': { schema: answer.json } } : {}),
      ...(answer.csv ? CSV : {}),
    };
    out[status] = { description: answer.description, ...(Object.keys(content).length > 0 ? { content } : {}) };
  }
  for (const status of errorStatuses(op))
    out[String(status)] = {
      description: STATUS_TEXT[status] ?? 'Error',
      content: { 'application/json': { schema: ApiErrorSchema } },
    };
  return out;
}

export function openApiDocument(operations: readonly ApiOperation[], info: { title: string; version: string; description: string }) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'Authorization: <token_type> <access_token>, from sign-in, sign-up or the guest sign-in',
  });
  for (const op of operations) {
    const body = op.body
      ? { required: true, content: { 'application/json': { schema: op.body } } }
      : op.upload
        ? {
            required: true,
            content: Object.fromEntries(op.upload.map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }])),
          }
        : undefined;
    registry.registerPath({
      method: op.method,
      path: op.path,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(op.access === 'token' || op.access === 'account' ? { security: [{ [bearer.name]: [] }] } : {}),
      ...(op.access === 'rules' ? { security: [{ [bearer.name]: [] }, {}] } : {}),
      request: {
        ...(op.params ? { params: op.params } : {}),
        ...(op.query ? { query: op.query } : {}),
        ...(body ? { body } : {}),
      },
      responses: answers(op),
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
  });
}
