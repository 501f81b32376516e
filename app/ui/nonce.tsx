import { createContext, useContext, type ReactNode } from 'react';

// The CSP nonce of this response. The browser hides nonce values from the DOM, so on the
// client it is always '' and the attribute still matches during hydration.
const NonceContext = createContext('');

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export const useNonce = () => useContext(NonceContext);
