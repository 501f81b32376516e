import { createRemixStub } from '@remix-run/testing';
import React from 'react';
import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { formatTimestamp } from '../timestamp-format';
import { Timestamp } from '../Timestamp';
import { Pagination } from './Pagination';
import { SortHeader } from './SortHeader';
import { nextSortDir } from './sort';

// The stub is a browser router; rendered to a string here, its layout effects would only warn.
beforeAll(() => {
  vi.spyOn(React, 'useLayoutEffect').mockImplementation(React.useEffect);
});

function render(node: React.ReactNode): string {
  const Stub = createRemixStub([{ path: '/', Component: () => <>{node}</> }]);
  return renderToString(<Stub />).replaceAll('<!-- -->', '');
}

describe('sortable headers', () => {
  it('turn the sorted column around and start a new one at its natural end', () => {
    expect(nextSortDir({ key: 'price', dir: 'desc' }, 'price', true)).toBe('asc');
    expect(nextSortDir({ key: 'price', dir: 'asc' }, 'price', true)).toBe('desc');
    expect(nextSortDir({ key: 'price', dir: 'asc' }, 'name', false)).toBe('asc');
    expect(nextSortDir({ key: 'name', dir: 'asc' }, 'price', true)).toBe('desc');
  });

  it('say their state and what a click does, as a link or a POST form', () => {
    const link = render(
      <table>
        <thead>
          <tr>
            <SortHeader label="Price" sortKey="price" sort={{ key: 'price', dir: 'desc' }} numeric href={(dir) => `?sort=price:${dir}`} />
          </tr>
        </thead>
      </table>,
    );
    expect(link).toContain('aria-sort="descending"');
    expect(link).toContain('href="/?sort=price:asc"');
    expect(link).toContain(', sort ascending');
    const form = render(
      <table>
        <thead>
          <tr>
            <SortHeader
              label="Name"
              sortKey="name"
              sort={{ key: 'price', dir: 'desc' }}
              formFields={(dir) => ({ intent: 'sort', key: 'name', dir })}
            />
          </tr>
        </thead>
      </table>,
    );
    expect(form).not.toContain('aria-sort');
    expect(form).toContain('method="post"');
    expect(form).toContain('name="dir" value="asc"');
  });
});

describe('pagination', () => {
  it('links the neighbouring pages and hides itself for one page', () => {
    const html = render(<Pagination label="Result pages" page={2} pageCount={3} href={(p) => `?page=${p}`} />);
    expect(html).toContain('aria-label="Result pages"');
    expect(html).toContain('href="/?page=1"');
    expect(html).toContain('href="/?page=3"');
    expect(html).toContain('Page 2 of 3');
    expect(render(<Pagination label="x" page={1} pageCount={1} href={(p) => `?page=${p}`} />)).not.toContain('nav');
  });
});

describe('timestamps', () => {
  it('show a stored UTC instant to the minute, or the day, never in local time', () => {
    expect(formatTimestamp('2026-01-02T03:04:05.678Z')).toBe('2026-01-02 03:04 UTC');
    expect(formatTimestamp('2026-01-02T23:59:59Z', 'day')).toBe('2026-01-02');
    expect(formatTimestamp('not a time')).toBe('not a time');
    const html = render(<Timestamp iso="2026-01-02T03:04:05.678Z" />);
    expect(html).toContain('dateTime="2026-01-02T03:04:05.678Z"');
    expect(html).toContain('2026-01-02 03:04 UTC');
    expect(render(<Timestamp iso={null} empty="never" />)).toContain('never');
  });
});
