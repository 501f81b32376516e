import { formatByFormat } from '~/services/metrics/format';

// A return or change (a fraction): gains green with "+", losses red with "-", so the sign says it
// even without colour. Zero and missing values stay neutral.
export function Change({ value, testId }: { value: number | null | undefined; testId?: string }) {
  const text = formatByFormat('percent', value ?? null);
  // What rounds to zero is shown as no change.
  const zero = /^-?0(\.0+)?%$/.test(text);
  const up = !zero && typeof value === 'number' && value > 0;
  const down = !zero && typeof value === 'number' && value < 0;
  const shown = down ? text : up ? `+${text}` : text.replace(/^-/, '');
  return (
    <span className={`change${up ? ' change--up' : down ? ' change--down' : ''}`} data-testid={testId}>
      {shown}
    </span>
  );
}
