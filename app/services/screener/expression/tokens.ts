import { parseNumberInput } from '../number-input';
import { ExpressionError, MAX_EXPRESSION_LENGTH } from './errors';

// Tokens of the screen language. Columns are 1-based so messages match what a person counts.

export type TokenKind = 'num' | 'ident' | 'str' | 'op' | 'end';

export type Token = { kind: TokenKind; text: string; value: number; col: number };

const TWO_CHAR_OPS = new Set(['<=', '>=', '!=']);
const ONE_CHAR_OPS = new Set(['+', '-', '*', '/', '(', ')', '<', '>', '=', ',', '[', ']', '%']);

export function tokenize(source: string): Token[] {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw new ExpressionError(`Rule is longer than ${MAX_EXPRESSION_LENGTH} characters`, MAX_EXPRESSION_LENGTH + 1);
  }
  const out: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const col = i + 1;
    if ((c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      // A scale suffix (300M, 1.2B, 5k) belongs to the number unless a name goes on (`1mo` is not 1M).
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?:(?:bn|[kmbt])(?![A-Za-z0-9_]))?/i.exec(source.slice(i));
      const text = m ? m[0] : c;
      const read = parseNumberInput(text);
      if (!read.ok) throw new ExpressionError(`Number "${text}" is out of range`, col);
      const value = read.value;
      out.push({ kind: 'num', text, value, col });
      i += text.length;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i));
      const text = m ? m[0] : c;
      out.push({ kind: 'ident', text, value: NaN, col });
      i += text.length;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== '"') {
        if (source[j] === '\\' && j + 1 < source.length) j++;
        text += source[j];
        j++;
      }
      if (j >= source.length) throw new ExpressionError('Unterminated text: a closing " is missing', col);
      out.push({ kind: 'str', text, value: NaN, col });
      i = j + 1;
      continue;
    }
    const two = source.slice(i, i + 2);
    if (TWO_CHAR_OPS.has(two)) {
      out.push({ kind: 'op', text: two, value: NaN, col });
      i += 2;
      continue;
    }
    if (ONE_CHAR_OPS.has(c)) {
      out.push({ kind: 'op', text: c, value: NaN, col });
      i++;
      continue;
    }
    throw new ExpressionError(`Unexpected character "${c}"`, col);
  }
  out.push({ kind: 'end', text: '', value: NaN, col: source.length + 1 });
  return out;
}
