// Entry of the demo's generator thread. Worker threads do not inherit tsx's loader from the
// process that started them, so the TypeScript module is loaded through tsx's API here.
import { register } from 'tsx/esm/api';

register();
await import('./generate.worker.ts');
