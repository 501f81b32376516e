import { isRouteErrorResponse, useLocation, useRouteError } from '@remix-run/react';

// The error page: a page-not-found variant for 404 and a generic server-error
// variant otherwise (default status 500), showing status code, message and description.
// It is drawn inside the layout of the page that failed (the layouts' error boundaries render
// RouteErrorPage), so the visitor keeps the navigation; root.tsx draws it alone only when the
// layout itself could not be drawn.

export const DEFAULT_ERROR_STATUS = 500;

export type ErrorPageModel = { status: number; title: string; message: string; description: string };

export function errorPageModel(error: unknown, path: string): ErrorPageModel {
  if (isRouteErrorResponse(error)) {
    const status = error.status || DEFAULT_ERROR_STATUS;
    const detail =
      typeof error.data === 'string'
        ? error.data
        : typeof error.data === 'object' && error.data !== null && 'detail' in error.data
          ? String((error.data as { detail: unknown }).detail)
          : '';
    if (status === 404) {
      return {
        status,
        title: 'Page Not Found',
        message: `Page not found: ${path}`,
        description: detail && !detail.startsWith('Page not found') ? detail : 'Check the address, or go back to the home page.',
      };
    }
    return {
      status,
      title: 'Internal Server Error',
      message: error.statusText || (status >= 500 ? 'Something went wrong on our side.' : 'The request could not be completed.'),
      description: detail || 'Please try again in a moment.',
    };
  }
  return {
    status: DEFAULT_ERROR_STATUS,
    title: 'Internal Server Error',
    message: 'Something went wrong on our side.',
    description: 'The error was logged. Please try again in a moment.',
  };
}

export function ErrorPage({ model }: { model: ErrorPageModel }) {
  const notFound = model.status === 404;
  return (
    <section className={`error-page ${notFound ? 'error-page--not-found' : 'error-page--server'}`} aria-labelledby="error-page-title">
      <p className="error-page__status" aria-label={`Status ${model.status}`}>
        {model.status}
      </p>
      <h1 id="error-page-title">{model.title}</h1>
      <p className="error-page__message">{model.message}</p>
      <p className="error-page__description">{model.description}</p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </section>
  );
}

/** The error page of the error a route boundary caught (unexpected errors are logged). */
export function RouteErrorPage() {
  const error = useRouteError();
  const location = useLocation();
  const model = errorPageModel(error, location.pathname);
  if (model.status >= 500) console.error(error);
  return <ErrorPage model={model} />;
}
