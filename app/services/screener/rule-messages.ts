import type { ExpressionError } from './expression';
import { closestMetric } from './metric-names';

// A rule that cannot be read, said the way a person fixes it: the metric it probably meant, or
// the text it stopped after, instead of a parser's column number.

const UNKNOWN_METRIC = /^Unknown metric "(.*)"$/;

export function ruleProblem(e: ExpressionError, ruleText: string, index: number): string {
  const head = `Rule ${index + 1}`;
  const unknown = UNKNOWN_METRIC.exec(e.reason);
  if (unknown) {
    const near = closestMetric(unknown[1]);
    const hint = near ? ` Did you mean ${near.id} (${near.label})?` : ' Pick a metric from the suggestions.';
    return `${head}: “${unknown[1]}” is not a metric.${hint}`;
  }
  const before = ruleText.slice(0, Math.max(0, e.column - 1)).trim();
  if (before === '') return `${head}: ${e.reason}.`;
  const shown = before.length > 40 ? `…${before.slice(-40)}` : before;
  return `${head}: ${e.reason}, after “${shown}”.`;
}
