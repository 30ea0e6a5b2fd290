//! What the page reads from what `raceshot serve` fills in: the client token and the media
//! base (with the development defaults while the placeholders are left as they are), and
//! the embedded API answers, each kept only when it has its answer's shape and handed out once.

import { clientToken, mediaBase, readPreload } from './config';

function setMeta(name: string, content: string) {
  const meta = document.createElement('meta');
  meta.name = name;
  meta.content = content;
  document.head.appendChild(meta);
}

afterEach(() => {
  document.head.querySelectorAll('meta[name^="raceshot-"]').forEach((m) => m.remove());
});

describe('media base', () => {
  it('is /media without the tag or with its placeholder (development server)', () => {
    expect(mediaBase()).toBe('/media');
    setMeta('raceshot-media-base', '__RACESHOT_MEDIA_BASE__');
    expect(mediaBase()).toBe('/media');
  });

  it('is the configured address, a CDN included', () => {
    setMeta('raceshot-media-base', 'https://cdn.example.com/photos');
    expect(mediaBase()).toBe('https://cdn.example.com/photos');
  });

  it('drops a trailing slash so addresses never hold two', () => {
    setMeta('raceshot-media-base', 'http://127.0.0.1:8080/media/');
    expect(mediaBase()).toBe('http://127.0.0.1:8080/media');
  });
});

describe('client token', () => {
  it('is the development token until the server fills it in', () => {
    setMeta('raceshot-client-token', '__RACESHOT_CLIENT_TOKEN__');
    expect(clientToken()).toBe('demo-client-token');
    document.head.querySelector('meta[name="raceshot-client-token"]')?.remove();
    setMeta('raceshot-client-token', 'tok-123');
    expect(clientToken()).toBe('tok-123');
  });
});

const event = {
  event_id: 1,
  event_key: 'demo',
  title: 'Demo Run',
  coverurl: '/media/demo/cover.jpg',
  eventdate: '2026-11-22',
  package: [],
  package_hb: [],
};

/** A document whose embedded-answers element holds `text`. */
function page(text: string): Document {
  const doc = document.implementation.createHTMLDocument();
  const script = doc.createElement('script');
  script.id = 'raceshot-preload';
  script.type = 'application/json';
  script.textContent = text;
  doc.head.appendChild(script);
  return doc;
}

describe('embedded answers', () => {
  it('are nothing in the development server, with no element, or when unreadable', () => {
    expect(readPreload(page('__RACESHOT_PRELOAD__'))).toEqual({});
    expect(readPreload(document.implementation.createHTMLDocument())).toEqual({});
    expect(readPreload(page('{"events":'))).toEqual({});
    expect(readPreload(page('[1, 2]'))).toEqual({});
    expect(readPreload(page('{}'))).toEqual({});
  });

  it('are the home page’s four answers as the API gives them', () => {
    const answers = {
      banners: { status: 'success', body: [{ image_url: '/media/b.jpg', link_url: '/demo' }] },
      soon: { status: 'success', body: [] },
      events: { status: 'success', body: [event] },
      count: { status: 'success', body: [{ event_count: 1 }] },
    };
    // The server writes `<` as \u003c inside the element; JSON reads it back.
    const text = JSON.stringify(answers).replace('Demo Run', 'Demo \\u003cRun');
    const read = readPreload(page(text));
    expect(read.banners).toEqual(answers.banners);
    expect(read.soon).toEqual(answers.soon);
    expect(read.count).toEqual(answers.count);
    expect(read.events?.body[0]?.title).toBe('Demo <Run');
  });

  it('are an event page’s event answer', () => {
    const read = readPreload(page(JSON.stringify({ event: { ...event, status: 'success' } })));
    expect(read.event).toEqual({ ...event, status: 'success' });
  });

  it('leave out any answer without its shape, keeping the others', () => {
    const read = readPreload(
      page(
        JSON.stringify({
          banners: { status: 'success', body: [{ image_url: 1 }] },
          soon: { status: 'success', body: [{ event_key: 'x' }] },
          events: { status: 'success', body: [event] },
          count: { body: [{ event_count: 1 }] },
          event: event,
        }),
      ),
    );
    expect(Object.keys(read)).toEqual(['events']);
  });
});

describe('taking an embedded answer', () => {
  afterEach(() => {
    document.getElementById('raceshot-preload')?.remove();
    vi.resetModules();
  });

  it('hands it out once, to the first query of the page that asks', async () => {
    const script = document.createElement('script');
    script.id = 'raceshot-preload';
    script.type = 'application/json';
    script.textContent = JSON.stringify({ event: { ...event, status: 'success' } });
    document.head.appendChild(script);
    vi.resetModules();
    const config = await import('./config');
    const before = Date.now();
    expect(config.takePreloaded('event')?.event_key).toBe('demo');
    expect(config.takePreloaded('event')).toBeUndefined();
    expect(config.takePreloaded('events')).toBeUndefined();
    expect(config.preloadedAt()).toBeLessThanOrEqual(before);
  });
});
