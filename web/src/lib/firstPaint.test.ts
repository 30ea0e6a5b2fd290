//! Pictures that wait for the first page's largest one: while the boot script's preload is
//! arriving, and not after; the picture being preloaded itself never waits.

import * as boot from '@/boot';

type FirstPaint = typeof import('./firstPaint');

/** A fresh copy of the module (it looks for the link once), with the boot script's link. */
async function withLink(done: boolean): Promise<{ module: FirstPaint; link: HTMLLinkElement }> {
  const link = document.createElement('link');
  link.id = boot.FIRST_PAINT_LINK_ID;
  link.rel = 'preload';
  link.href = '/media/demo/cover.jpg';
  if (done) link.setAttribute(`data-${boot.FIRST_PAINT_DONE}`, '');
  document.head.appendChild(link);
  vi.resetModules();
  return { module: await import('./firstPaint'), link };
}

afterEach(() => {
  document.head.innerHTML = '';
});

describe('pictures waiting for the largest one', () => {
  it('uses the boot script’s names', async () => {
    const { module } = await withLink(false);
    expect(module.FIRST_PAINT_LINK_ID).toBe(boot.FIRST_PAINT_LINK_ID);
    expect(module.DONE_ATTRIBUTE).toBe(`data-${boot.FIRST_PAINT_DONE}`);
  });

  it('wait until it has arrived, then load', async () => {
    const { module, link } = await withLink(false);
    const changed = vi.fn();
    module.subscribe(changed);
    expect(module.mayLoadPicture('/media/demo/banner.jpg')).toBe(false);
    // The picture being preloaded is the one that goes first.
    expect(module.mayLoadPicture('/media/demo/cover.jpg')).toBe(true);
    link.dispatchEvent(new Event('load'));
    expect(changed).toHaveBeenCalledTimes(1);
    expect(module.mayLoadPicture('/media/demo/banner.jpg')).toBe(true);
  });

  it('do not wait when it had already arrived, or when there is none', async () => {
    expect((await withLink(true)).module.mayLoadPicture('/media/demo/banner.jpg')).toBe(true);
    document.head.innerHTML = '';
    vi.resetModules();
    const module: FirstPaint = await import('./firstPaint');
    expect(module.mayLoadPicture('/media/demo/banner.jpg')).toBe(true);
  });

  it('stop waiting after a while should it never arrive', async () => {
    vi.useFakeTimers();
    try {
      const { module } = await withLink(false);
      expect(module.mayLoadPicture('/media/demo/banner.jpg')).toBe(false);
      vi.advanceTimersByTime(4_000);
      expect(module.mayLoadPicture('/media/demo/banner.jpg')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
