import { CSP_NONCE_PLACEHOLDER } from '@forum/contracts';

/**
 * The CSP nonce the gateway gave this page, from the `<meta property="csp-nonce">` the apps' build writes
 * into index.html: the apps give it to the <style> elements they insert (emotion's cache), which
 * the page's CSP allows by that nonce alone. Undefined where no gateway filled it in (Vite's dev server).
 */
export function pageNonce(): string | undefined {
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  // browsers hide a nonce attribute's value once the page is parsed; the property keeps it
  const nonce = meta?.nonce || meta?.getAttribute('nonce') || undefined;
  return nonce === CSP_NONCE_PLACEHOLDER ? undefined : nonce;
}
