import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Change } from './Change';

describe('Change', () => {
  it('colours gains and losses and always writes the sign', () => {
    expect(renderToStaticMarkup(<Change value={0.0123} />)).toBe('<span class="change change--up">+1.23%</span>');
    expect(renderToStaticMarkup(<Change value={-0.5} />)).toBe('<span class="change change--down">-50.00%</span>');
    expect(renderToStaticMarkup(<Change value={0} />)).toBe('<span class="change">0.00%</span>');
    expect(renderToStaticMarkup(<Change value={-0.00001} />)).toBe('<span class="change">0.00%</span>');
    expect(renderToStaticMarkup(<Change value={null} />)).toBe('<span class="change">n/a</span>');
  });
});
