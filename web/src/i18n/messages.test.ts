//! The split of the texts: each feature's dictionary stays out of the first script and is
//! added when the feature's code loads. A page that used a key of a dictionary nobody had
//! loaded would show the key itself, so the rules that prevent it are checked on the source:
//! a feature's keys are used only inside the feature, whose files take `useT` from the
//! feature's own `messages.ts`.

import { messages } from './messages';

/** Every key prefix of a feature dictionary, and the feature directory that owns it. */
const OWNERS = {
  alert: 'alerts',
  cart: 'cart',
  content: 'content',
  event: 'events',
  home: 'home',
  order: 'orders',
  qr: 'qr',
} as const;

const sources = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/**/*.test.{ts,tsx}', '!/src/test/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

const featureOf = (path: string) => /^\/src\/features\/([^/]+)\//.exec(path)?.[1];

describe('feature texts', () => {
  it('are not loaded until the feature is', async () => {
    expect(messages.th['app.name']).toBe('Raceshot');
    expect(messages.th['qr.download']).toBeUndefined();
    const { qrMessages } = await import('@/features/qr/messages');
    expect(messages.th['qr.download']).toBe(qrMessages.th['qr.download']);
    expect(messages.en['qr.download']).toBe(qrMessages.en['qr.download']);
  });

  it('each carry only their own prefix, so a key names the feature that loads it', async () => {
    const dictionaries = {
      alert: (await import('@/features/alerts/messages')).alertsMessages,
      cart: (await import('@/features/cart/messages')).cartMessages,
      content: (await import('@/features/content/messages')).contentMessages,
      event: (await import('@/features/events/messages')).eventsMessages,
      home: (await import('@/features/home/messages')).homeMessages,
      order: (await import('@/features/orders/messages')).ordersMessages,
      qr: (await import('@/features/qr/messages')).qrMessages,
    };
    for (const [prefix, dict] of Object.entries(dictionaries)) {
      const keys = Object.keys(dict.th);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((k) => !k.startsWith(`${prefix}.`))).toEqual([]);
    }
  });

  it('are used only inside their feature', () => {
    const strays: string[] = [];
    for (const [path, text] of Object.entries(sources)) {
      for (const m of text.matchAll(/['`](alert|cart|content|event|home|order|qr)\.[A-Za-z$]/g)) {
        const owner = OWNERS[m[1] as keyof typeof OWNERS];
        // `import './home.css'` and the like name files, not texts.
        if (text.slice(m.index, m.index + 40).match(/^['`]\w+\.css['`]/)) continue;
        if (featureOf(path) !== owner) strays.push(`${path}: ${m[0]}`);
      }
    }
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(strays).toEqual([]);
  });

  it('come with every translator a feature uses', () => {
    const direct: string[] = [];
    for (const [path, text] of Object.entries(sources)) {
      const feature = featureOf(path);
      if (feature === undefined || !Object.values(OWNERS).includes(feature as never)) continue;
      if (path.endsWith('/messages.ts')) continue;
      if (/import \{[^}]*\buseT\b[^}]*\} from '@\/i18n'/.test(text)) direct.push(path);
    }
    expect(direct).toEqual([]);
  });
});
