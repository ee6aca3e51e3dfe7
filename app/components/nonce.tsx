import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the response being rendered on the server. In the browser, and when
 * pages are prerendered (their scripts are allowed by hash instead), there is none.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
