import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BarChart } from './BarChart';
import { LineChart } from './LineChart';

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
