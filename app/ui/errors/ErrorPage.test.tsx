import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ErrorPage, errorPageModel } from './ErrorPage';

// A route error response as Remix hands it to the error boundary.
const routeError = (status: number, statusText: string, data: unknown) => ({ status, statusText, data, internal: false });

describe('error page', () => {
  it('shows the page-not-found variant for 404 with the path', () => {
    const model = errorPageModel(routeError(404, 'Not Found', 'Page not found: /nope'), '/nope');
    expect(model).toMatchObject({ status: 404, title: 'Page Not Found', message: 'Page not found: /nope' });
    const html = renderToStaticMarkup(<ErrorPage model={model} />);
    expect(html).toContain('<h1 id="error-page-title">Page Not Found</h1>');
    expect(html).toContain('Page not found: /nope');
    expect(html).toContain('404');
  });

  it('shows the server-error variant for any other status, with its message and description', () => {
    const model = errorPageModel(routeError(503, 'Service Unavailable', { detail: 'The market database is being rebuilt.' }), '/x');
    expect(model).toEqual({
      status: 503,
      title: 'Internal Server Error',
      message: 'Service Unavailable',
      description: 'The market database is being rebuilt.',
    });
  });

  it('defaults to status 500 for a thrown error', () => {
    const model = errorPageModel(new Error('boom'), '/company/AAPL');
    expect(model.status).toBe(500);
    expect(model.title).toBe('Internal Server Error');
    const html = renderToStaticMarkup(<ErrorPage model={model} />);
    expect(html).toContain('500');
    expect(html).not.toContain('boom');
  });
});
