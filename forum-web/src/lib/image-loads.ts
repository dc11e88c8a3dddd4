import { PHOTO_LOAD_TIMEOUT_MS } from '@forum/contracts';

/**
 * Whether `src` loads and decodes as an image in this browser, as the photo will for its viewers:
 * under the page's CSP (img-src) and without a referrer, as the app's avatars ask for it. A page, a
 * broken link or an address the CSP refuses answers false, as does one still loading after
 * `timeoutMs`.
 */
export async function imageLoads(src: string, timeoutMs = PHOTO_LOAD_TIMEOUT_MS): Promise<boolean> {
  const image = new Image();
  image.referrerPolicy = 'no-referrer';
  image.src = src;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      image.decode().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
