import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TagManagerScript } from './TagManager';

describe('tag manager', () => {
  it('loads nothing when no container is configured', () => {
    expect(renderToStaticMarkup(<TagManagerScript config={null} />)).toBe('');
  });
  it('loads the configured container', () => {
    const html = renderToStaticMarkup(<TagManagerScript config={{ id: 'GTM-K9X2ABC', enableRouterSync: true }} />);
    expect(html).toContain('googletagmanager.com/gtm.js');
    expect(html).toContain('"GTM-K9X2ABC"');
  });
});
