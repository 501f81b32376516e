// `npm run api:types`: writes the generated API client's types (tests/support/api-client/api-types.ts)
// from the OpenAPI document the app serves, after a change to the API contract.
import { writeFileSync } from 'node:fs';
import { apiDocument } from '../app/services/api-operations';
import { API_TYPES_FILE, apiTypesSource } from '../tests/support/api-client/generate';

writeFileSync(API_TYPES_FILE, await apiTypesSource(apiDocument()));
console.log(`Wrote ${API_TYPES_FILE}`);
