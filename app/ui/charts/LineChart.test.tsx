import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { BarChart } from './BarChart';
import { LineChart } from './LineChart';
import { registerServerSvgRenderer } from './server-svg';

// Server rendering is the no-JavaScript rendering: the SVG must be there, named, with its table.

const series = [
  {
    id: 'a',
    label: 'ACME',
    points: [
      { date: '2024-01-02', value: 10 },
      { date: '2024-02-01', value: 12 },
      { date: '2024-03-01', value: 11 },
    ],
  },
];
const fmt = (v: number | null) => (v === null ? 'n/a' : v.toFixed(2));

describe('LineChart (server render)', () => {
  it('renders a named SVG and a data table', () => {
    const html = renderToString(<LineChart label="ACME price" series={series} format={fmt} />);
    expect(html).toContain('<svg');
    expect(html).toMatch(/role="img"[^>]*aria-label="ACME price"|aria-label="ACME price"[^>]*role="img"/);
    expect(html).toContain('<caption>Data: ACME price</caption>');
    expect(html).toContain('12.00');
    // Data labels are off by default.
    expect(html).not.toMatch(/font-weight:\s*700/);
  });
  it('draws bold data labels when enabled', () => {
    const html = renderToString(<LineChart label="ACME price" series={series} format={fmt} dataLabels />);
    expect(html).toMatch(/font-weight:\s*700/);
  });
  it('says so when there is nothing to draw', () => {
    const html = renderToString(
      <LineChart label="Empty" series={[{ id: 'a', label: 'A', points: [{ date: '2024-01-01', value: null }] }]} format={fmt} />,
    );
    expect(html).toContain('No data to chart');
    expect(html).not.toContain('<svg');
  });
});

describe('BarChart (server render)', () => {
  it('renders bars with a name and a table', () => {
    const html = renderToString(
      <BarChart
        label="Dividends per year"
        seriesLabel="Dividends"
        points={[
          { date: '2022', value: 1 },
          { date: '2023', value: 1.2 },
        ]}
        format={fmt}
      />,
    );
    expect(html).toMatch(/aria-label="Dividends per year"/);
    expect(html).toContain('<rect');
    expect(html).toContain('1.20');
  });
});

describe("charts with the server's kept markup (entry.server.tsx registers it)", () => {
  afterEach(() => registerServerSvgRenderer(null));

  it('draws the SVG and the data table once per drawing and inserts the same markup on every render', () => {
    const plain = renderToString(<LineChart label="ACME price" series={series} format={fmt} />);
    const kept = new Map<string, string>();
    let drawn = 0;
    registerServerSvgRenderer((key, element) => {
      if (!kept.has(key)) {
        drawn++;
        kept.set(key, renderToStaticMarkup(element()));
      }
      return kept.get(key)!;
    });
    const first = renderToString(<LineChart label="ACME price" series={series} format={fmt} />);
    const second = renderToString(<LineChart label="ACME price" series={series} format={fmt} />);
    expect(drawn).toBe(2);
    expect(second).toBe(first);
    // The same elements as React renders them itself (text nodes apart).
    const text = (html: string) => html.replace(/<!-- -->/g, '');
    expect(text(first)).toBe(text(plain));
    expect(first).toContain('<div class="visually-hidden"><table class="data-table"><caption>Data: ACME price</caption>');
    // Another value or another format is another drawing.
    const changed = series.map((s) => ({ ...s, points: s.points.map((p, i) => (i === 1 ? { ...p, value: 13 } : p)) }));
    expect(renderToString(<LineChart label="ACME price" series={changed} format={fmt} />)).toContain('<td class="num">13.00</td>');
    expect(renderToString(<LineChart label="ACME price" series={series} format={(v) => (v === null ? '—' : `$${v}`)} />)).toContain(
      '<td class="num">$12</td>',
    );
    expect(drawn).toBe(6);
  });
});
