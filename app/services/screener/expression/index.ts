export * from './ast';
export * from './errors';
export { parseRule } from './parse';
