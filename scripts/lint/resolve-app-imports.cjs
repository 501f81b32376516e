// An import resolver (eslint-module-utils interface v2) for eslint-plugin-boundaries: it maps
// the `~/` alias of tsconfig.json to app/ and finds TypeScript files by their extensionless
// specifiers, as Vite does. Packages resolve as Node resolves them.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const CANDIDATES = ['', '.ts', '.tsx', '.js', '.mjs', '.cjs', '/index.ts', '/index.tsx', '/index.js'];

function firstFile(base) {
  for (const suffix of CANDIDATES) {
    const p = base + suffix;
    if (fs.existsSync(p) && fs.statSync(p).isFile()) return p;
  }
  return null;
}

exports.interfaceVersion = 2;

exports.resolve = function resolve(source, file) {
  if (source.startsWith('~/')) {
    const p = firstFile(path.join(ROOT, 'app', source.slice(2)));
    return p ? { found: true, path: p } : { found: false };
  }
  if (source.startsWith('.')) {
    const p = firstFile(path.resolve(path.dirname(file), source));
    return p ? { found: true, path: p } : { found: false };
  }
  if (source.startsWith('node:')) return { found: true, path: null };
  try {
    return { found: true, path: require.resolve(source, { paths: [path.dirname(file)] }) };
  } catch {
    return { found: false };
  }
};
