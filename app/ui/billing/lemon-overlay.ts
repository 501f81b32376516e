// Lemon.js, the provider's overlay script, loaded on first use from its configured URL (the CSP
// allows exactly that origin). If it cannot be loaded, the checkout opens as a page instead.

type LemonSqueezyGlobal = { Url: { Open: (url: string) => void } };
declare global {
  interface Window {
    createLemonSqueezy?: () => void;
    LemonSqueezy?: LemonSqueezyGlobal;
  }
}

let loading: Promise<LemonSqueezyGlobal | null> | null = null;

function loadLemonJs(src: string): Promise<LemonSqueezyGlobal | null> {
  loading ??= new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => {
      // Lemon.js sets itself up on page load; loaded later, it waits for this call.
      if (!window.LemonSqueezy) window.createLemonSqueezy?.();
      resolve(window.LemonSqueezy ?? null);
    };
    script.onerror = () => {
      loading = null;
      resolve(null);
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Opens the hosted checkout in the overlay, or navigates to it when the overlay is unavailable. */
export async function openCheckout(checkoutUrl: string, overlayScriptUrl: string): Promise<void> {
  const lemon = window.LemonSqueezy ?? (await loadLemonJs(overlayScriptUrl));
  if (!lemon?.Url?.Open) {
    window.location.assign(checkoutUrl);
    return;
  }
  // embed=1 asks the checkout page for its overlay layout.
  const url = new URL(checkoutUrl);
  url.searchParams.set('embed', '1');
  lemon.Url.Open(url.toString());
}
