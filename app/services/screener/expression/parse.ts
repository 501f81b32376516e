import { isMetricId } from '../../metrics/catalogue';
import { shiftDecimal } from '../number-input';
import {
  CATEGORY_FIELDS,
  COMPARE_OPS,
  FUNCTIONS,
  RANK_GROUPS,
  literalValue,
  type ArithOp,
  type CategoryField,
  type CompareOp,
  type Expr,
  type FunctionName,
  type RankGroup,
  type RuleAst,
} from './ast';
import { ExpressionError, MAX_EXPRESSION_DEPTH } from './errors';
import { tokenize, type Token } from './tokens';

// A Pratt parser for one screen rule. Every error names the column of the token at fault.

const INFIX: Record<string, number> = { '+': 1, '-': 1, '*': 2, '/': 2 };
const MAX_CATEGORY_VALUES = 100;

export type ParseOptions = { isMetric?: (id: string) => boolean };

class Parser {
  private i = 0;
  private depth = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly isMetric: (id: string) => boolean,
  ) {}

  peek(): Token {
    return this.tokens[this.i];
  }
  next(): Token {
    return this.tokens[this.i++];
  }
  isOp(text: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.text === text;
  }
  isWord(word: string): boolean {
    const t = this.peek();
    return t.kind === 'ident' && t.text.toLowerCase() === word;
  }
  expectOp(text: string): Token {
    const t = this.peek();
    if (t.kind !== 'op' || t.text !== text) throw new ExpressionError(`Expected "${text}" but found ${describe(t)}`, t.col);
    return this.next();
  }
  expectWord(word: string): Token {
    if (!this.isWord(word)) throw new ExpressionError(`Expected "${word}" but found ${describe(this.peek())}`, this.peek().col);
    return this.next();
  }
  expectEnd(): void {
    const t = this.peek();
    if (t.kind !== 'end') throw new ExpressionError(`Unexpected ${describe(t)}`, t.col);
  }

  metricName(t: Token): string {
    if (t.kind !== 'ident') throw new ExpressionError(`Expected a metric but found ${describe(t)}`, t.col);
    if (!this.isMetric(t.text)) throw new ExpressionError(`Unknown metric "${t.text}"`, t.col);
    return t.text;
  }

  expr(minPrecedence = 0): Expr {
    if (++this.depth > MAX_EXPRESSION_DEPTH)
      throw new ExpressionError(`Expression is nested more than ${MAX_EXPRESSION_DEPTH} levels deep`, this.peek().col);
    let left = this.prefix();
    for (;;) {
      const t = this.peek();
      const p = t.kind === 'op' ? INFIX[t.text] : undefined;
      if (p === undefined || p <= minPrecedence) break;
      this.next();
      const right = this.expr(p);
      left = { t: 'bin', op: t.text as ArithOp, left, right };
    }
    this.depth--;
    return left;
  }

  prefix(): Expr {
    const t = this.next();
    if (t.kind === 'num') {
      // `5%` is the fraction 0.05, the way percentage metrics are stored.
      if (this.isOp('%')) {
        this.next();
        return { t: 'num', value: shiftDecimal(String(t.value), -2) };
      }
      return { t: 'num', value: t.value };
    }
    if (t.kind === 'op' && t.text === '-') return { t: 'neg', arg: this.expr(2.5) };
    if (t.kind === 'op' && t.text === '(') {
      const inner = this.expr(0);
      this.expectOp(')');
      return inner;
    }
    if (t.kind === 'ident') {
      if (this.isOp('(') && t.text in FUNCTIONS) {
        const fn = t.text as FunctionName;
        this.next();
        const args: Expr[] = [this.expr(0)];
        while (this.isOp(',')) {
          this.next();
          args.push(this.expr(0));
        }
        const close = this.expectOp(')');
        if (args.length !== FUNCTIONS[fn])
          throw new ExpressionError(
            `${fn}() takes ${FUNCTIONS[fn]} argument${FUNCTIONS[fn] === 1 ? '' : 's'}, got ${args.length}`,
            close.col,
          );
        return { t: 'call', fn, args };
      }
      return { t: 'metric', id: this.metricName(t) };
    }
    if (t.kind === 'end') throw new ExpressionError('Expression ends too early', t.col);
    throw new ExpressionError(`Unexpected ${describe(t)}`, t.col);
  }

  rule(): RuleAst {
    const first = this.peek();
    if (first.kind === 'ident' && (CATEGORY_FIELDS as readonly string[]).includes(first.text)) {
      return this.categoryRule(first.text as CategoryField);
    }
    // `metric in top 20% of sector` and `metric between a and b` start with a bare metric.
    if (first.kind === 'ident' && !(first.text in FUNCTIONS)) {
      const after = this.tokens[this.i + 1];
      if (after.kind === 'ident' && after.text.toLowerCase() === 'in') return this.rankRule();
      if (after.kind === 'ident' && after.text.toLowerCase() === 'between') return this.betweenRule();
    }
    const left = this.expr(0);
    const opToken = this.peek();
    if (opToken.kind !== 'op' || !(COMPARE_OPS as readonly string[]).includes(opToken.text)) {
      throw new ExpressionError(`Expected a comparison (< <= > >= = !=) but found ${describe(opToken)}`, opToken.col);
    }
    this.next();
    const right = this.expr(0);
    this.expectEnd();
    return { t: 'compare', left, op: opToken.text as CompareOp, right };
  }

  signedNumber(): number {
    const t = this.peek();
    const e = this.expr(0);
    const v = literalValue(e);
    if (v === null) throw new ExpressionError('Expected a number', t.col);
    return v;
  }

  betweenRule(): RuleAst {
    const metric = this.metricName(this.next());
    this.expectWord('between');
    const lowToken = this.peek();
    const low = this.signedNumber();
    this.expectWord('and');
    const high = this.signedNumber();
    this.expectEnd();
    if (low > high) throw new ExpressionError(`The lower bound ${low} is above the upper bound ${high}`, lowToken.col);
    return { t: 'between', metric, low, high };
  }

  rankRule(): RuleAst {
    const metric = this.metricName(this.next());
    this.expectWord('in');
    const sideToken = this.next();
    const side = sideToken.kind === 'ident' ? sideToken.text.toLowerCase() : '';
    if (side !== 'top' && side !== 'bottom')
      throw new ExpressionError(`Expected "top" or "bottom" but found ${describe(sideToken)}`, sideToken.col);
    const pctToken = this.next();
    if (pctToken.kind !== 'num') throw new ExpressionError(`Expected a percentage but found ${describe(pctToken)}`, pctToken.col);
    if (!(pctToken.value > 0 && pctToken.value <= 100))
      throw new ExpressionError('The percentage must be above 0 and at most 100', pctToken.col);
    this.expectOp('%');
    let within: RankGroup = 'universe';
    if (this.isWord('of')) {
      this.next();
      const g = this.next();
      if (g.kind !== 'ident' || !(RANK_GROUPS as readonly string[]).includes(g.text.toLowerCase())) {
        throw new ExpressionError(`Expected universe, sector or industry but found ${describe(g)}`, g.col);
      }
      within = g.text.toLowerCase() as RankGroup;
    }
    this.expectEnd();
    return { t: 'rank', metric, side, percent: pctToken.value, within };
  }

  categoryRule(field: CategoryField): RuleAst {
    this.next();
    let negate = false;
    if (this.isWord('not')) {
      this.next();
      negate = true;
    }
    this.expectWord('in');
    this.expectOp('[');
    const values: string[] = [];
    for (;;) {
      const t = this.next();
      if (t.kind !== 'str') throw new ExpressionError(`Expected a quoted ${field} name but found ${describe(t)}`, t.col);
      if (values.length >= MAX_CATEGORY_VALUES) throw new ExpressionError(`At most ${MAX_CATEGORY_VALUES} values`, t.col);
      values.push(t.text);
      if (this.isOp(',')) {
        this.next();
        continue;
      }
      break;
    }
    this.expectOp(']');
    this.expectEnd();
    return { t: 'category', field, negate, values };
  }
}

function describe(t: Token): string {
  if (t.kind === 'end') return 'the end of the rule';
  if (t.kind === 'str') return `"${t.text}"`;
  return `"${t.text}"`;
}

/** Parses one rule line (`pe_ttm < 15`, `roe in top 20% of sector`, …); throws ExpressionError. */
export function parseRule(source: string, opts: ParseOptions = {}): RuleAst {
  const parser = new Parser(tokenize(source), opts.isMetric ?? isMetricId);
  if (parser.peek().kind === 'end') throw new ExpressionError('The rule is empty', 1);
  return parser.rule();
}
