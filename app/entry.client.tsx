import { RemixBrowser } from '@remix-run/react';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { installBuildUpdateChecks } from './ui/build-updates';

// A failed chunk load means a new build replaced the files this page was built against:
// reload so the browser fetches the current ones.
window.addEventListener('vite:preloadError', () => window.location.reload());

try {
  installBuildUpdateChecks();
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
} catch (error) {
  console.error('Error while mounting app:', error);
}
