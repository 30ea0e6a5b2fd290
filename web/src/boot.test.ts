//! The boot script: which picture it picks from the embedded answers, and the preload it
//! adds before the app has loaded.

import { FIRST_PAINT_LINK_ID, firstPaintImage } from './boot';

const event = (coverurl: string) => ({ event_key: 'demo', coverurl });

describe('the first paint picture', () => {
  it('is the first event’s cover on the home page', () => {
    const text = JSON.stringify({
      banners: { status: 'success', body: [{ image_url: '/media/b.jpg', link_url: '' }] },
      events: { status: 'success', body: [event('/media/c1.jpg'), event('/media/c2.jpg')] },
    });
    expect(firstPaintImage(text)).toBe('/media/c1.jpg');
  });

  it('is the first banner when the first event has no cover', () => {
    const text = JSON.stringify({
      banners: { status: 'success', body: [{ image_url: '/media/b.jpg', link_url: '' }] },
      events: { status: 'success', body: [event(''), event('/media/c2.jpg')] },
    });
    expect(firstPaintImage(text)).toBe('/media/b.jpg');
  });

  it('is the event’s cover on an event page, and nothing when it has none', () => {
    expect(firstPaintImage(JSON.stringify({ event: event('/media/c.jpg') }))).toBe('/media/c.jpg');
    expect(firstPaintImage(JSON.stringify({ event: event('') }))).toBeUndefined();
  });

  it('is nothing without embedded answers or with anything unexpected', () => {
    expect(firstPaintImage('__RACESHOT_PRELOAD__')).toBeUndefined();
    expect(firstPaintImage('{}')).toBeUndefined();
    expect(firstPaintImage('null')).toBeUndefined();
    expect(firstPaintImage(JSON.stringify({ events: { body: [{ coverurl: 7 }] } }))).toBeUndefined();
  });
});

describe('the boot script', () => {
  afterEach(() => {
    document.head.innerHTML = '';
    vi.resetModules();
  });

  it('asks for the picture at once, with a high priority', async () => {
    document.head.innerHTML = `<script id="raceshot-preload" type="application/json">${JSON.stringify({
      event: event('/media/demo/cover.jpg'),
    })}</script>`;
    vi.resetModules();
    await import('./boot');
    const link = document.getElementById(FIRST_PAINT_LINK_ID) as HTMLLinkElement;
    expect(link.rel).toBe('preload');
    expect(link.as).toBe('image');
    expect(link.getAttribute('href')).toBe('/media/demo/cover.jpg');
    expect(link.fetchPriority).toBe('high');
  });

  it('adds nothing on a page without embedded answers', async () => {
    document.head.innerHTML = '<script id="raceshot-preload" type="application/json">{}</script>';
    vi.resetModules();
    await import('./boot');
    expect(document.getElementById(FIRST_PAINT_LINK_ID)).toBeNull();
  });
});
