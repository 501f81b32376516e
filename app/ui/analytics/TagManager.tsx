import { useLocation, useMatches } from '@remix-run/react';
import { useEffect } from 'react';
import { useNonce } from '../nonce';

// Google Tag Manager: loaded only when GTM_ID is set; page views carry the route
// name (or the route's `handle.pageName`) and the full path when enableRouterSync is on.

export type TagManagerConfig = { id: string; enableRouterSync: boolean };

declare global {
  interface Window {
    dataLayer?: Array<Record<string, unknown>>;
  }
}

export function TagManagerScript({ config }: { config: TagManagerConfig | null }) {
  const nonce = useNonce();
  if (!config) return null;
  const id = JSON.stringify(config.id);
  const code = `(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+encodeURIComponent(i);var n=d.querySelector('[nonce]');if(n){j.setAttribute('nonce',n.nonce||n.getAttribute('nonce'))}f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer',${id});`;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: code }} />;
}

export function usePageViews(config: TagManagerConfig | null) {
  const location = useLocation();
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const handle = leaf?.handle as { pageName?: string } | undefined;
  const routeName = handle?.pageName ?? leaf?.id ?? 'unknown';
  useEffect(() => {
    if (!config?.enableRouterSync) return;
    window.dataLayer = window.dataLayer ?? [];
    window.dataLayer.push({ event: 'page_view', routeName, fullPath: location.pathname + location.search + location.hash });
  }, [config, routeName, location.pathname, location.search, location.hash]);
}
