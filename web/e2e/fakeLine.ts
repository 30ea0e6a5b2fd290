//! A local stand-in for LINE that speaks its contract, for the browser suite: LINE
//! Login's authorize page (approves at once and sends the browser back with a code), the
//! token endpoint (the code once, the channel secret, the PKCE verifier against its S256
//! challenge; an ID token signed HS256 with the channel secret), the verify endpoint and
//! the Messaging API's push (the channel access token; pushes kept for the test to read
//! at `GET /_pushed`).

import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';

export const LINE = {
  channelId: '1650000001',
  channelSecret: 'e2e-login-channel-secret',
  accessToken: 'e2e-messaging-access-token',
  user: 'U4af4980629a0b0c0d0e0f0a0b0c0d0e0',
} as const;

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

function idToken(nonce: string): string {
  const now = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));
  const claims = b64url(
    JSON.stringify({ iss: 'https://access.line.me', sub: LINE.user, aud: LINE.channelId, exp: now + 3600, iat: now, nonce }),
  );
  const signature = createHmac('sha256', LINE.channelSecret).update(`${header}.${claims}`).digest('base64url');
  return `${header}.${claims}.${signature}`;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the fake on a free local port; answers its base address and a stop. */
export async function startFakeLine(): Promise<{ url: string; stop: () => Promise<void> }> {
  const codes = new Map<string, { nonce: string; challenge: string; redirect: string }>();
  const pushed: unknown[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'GET' && url.pathname === '/oauth2/v2.1/authorize') {
        const q = url.searchParams;
        if (q.get('client_id') !== LINE.channelId || q.get('code_challenge_method') !== 'S256') {
          json(400, { error: 'invalid_request' });
          return;
        }
        const code = randomBytes(12).toString('hex');
        const redirect = q.get('redirect_uri') ?? '';
        codes.set(code, { nonce: q.get('nonce') ?? '', challenge: q.get('code_challenge') ?? '', redirect });
        const back = new URL(redirect);
        back.searchParams.set('code', code);
        back.searchParams.set('state', q.get('state') ?? '');
        res.writeHead(302, { location: back.toString() });
        res.end();
      } else if (req.method === 'POST' && url.pathname === '/oauth2/v2.1/token') {
        const form = new URLSearchParams(await body(req));
        const login = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
        if (!login || form.get('client_secret') !== LINE.channelSecret || verifier !== login.challenge || form.get('redirect_uri') !== login.redirect) {
          json(400, { error: 'invalid_grant' });
          return;
        }
        json(200, { access_token: 'at', token_type: 'Bearer', expires_in: 2592000, scope: 'openid profile', id_token: idToken(login.nonce) });
      } else if (req.method === 'POST' && url.pathname === '/oauth2/v2.1/verify') {
        const form = new URLSearchParams(await body(req));
        const [header, claims, signature] = (form.get('id_token') ?? '').split('.');
        const good = createHmac('sha256', LINE.channelSecret).update(`${header}.${claims}`).digest('base64url') === signature;
        if (!good || form.get('client_id') !== LINE.channelId) {
          json(400, { error: 'invalid_request', error_description: 'Invalid IdToken.' });
          return;
        }
        json(200, JSON.parse(Buffer.from(claims ?? '', 'base64url').toString('utf8')));
      } else if (req.method === 'POST' && url.pathname === '/v2/bot/message/push') {
        if (req.headers.authorization !== `Bearer ${LINE.accessToken}` || !req.headers['x-line-retry-key']) {
          json(401, { message: 'Authentication failed.' });
          return;
        }
        pushed.push(JSON.parse(await body(req)));
        json(200, { sentMessages: [{ id: String(pushed.length) }] });
      } else if (req.method === 'GET' && url.pathname === '/_pushed') {
        json(200, pushed);
      } else {
        json(404, { message: 'Not found' });
      }
    })();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise((ok) => server.close(() => ok())),
  };
}
