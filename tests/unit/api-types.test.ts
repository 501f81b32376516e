import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiDocument } from '~/services/api-operations';
import { API_TYPES_FILE, apiTypesSource } from '../support/api-client/generate';

// The generated client's types (used by tests/e2e/api-client.spec.ts) follow the API contract:
// after changing a schema, `npm run api:types` writes them again.

describe('the generated API client types', () => {
  it('are what openapi-typescript makes of the current OpenAPI document', async () => {
    const fresh = await apiTypesSource(apiDocument());
    expect(fresh === readFileSync(API_TYPES_FILE, 'utf8'), `${API_TYPES_FILE} is stale: run npm run api:types`).toBe(true);
  });
});
