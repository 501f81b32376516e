export * from './ast';
export * from './errors';
export { parseExpression, parseRule, type ParseOptions } from './parse';
