import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface LocalOidcProvider {
  issuer: string;
  /** Plays the user at the provider: signs in as `accountId`, consents, and answers the query sent back to us. */
  signIn(authorizationUrl: string, accountId: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** A real OpenID Connect provider on loopback (oidc-provider with its development sign-in pages). */
export async function startOidcProvider(client: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<LocalOidcProvider> {
  // The issuer names the port, so the server listens before the provider exists.
  const holder: { provider?: Provider } = {};
  const server: Server = createServer((req, res) => holder.provider!.callback()(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  holder.provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    cookies: { keys: ['local-oidc-test-key'] },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email', 'email_verified'] },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({
        sub,
        preferred_username: sub,
        name: `Teacher ${sub}`,
        email: `${sub}@idp.test`,
        email_verified: true,
      }),
    }),
    features: { devInteractions: { enabled: true } },
  });

  async function signIn(authorizationUrl: string, accountId: string) {
    const cookies = new Map<string, string>();
    let url = authorizationUrl;
    for (let step = 0; step < 12; step++) {
      const form = url.endsWith('#login') ? 'login' : url.endsWith('#consent') ? 'consent' : null;
      const target = url.replace(/#(login|consent)$/, '');
      const res = await fetch(target, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form ? new URLSearchParams({ prompt: form, login: accountId }).toString() : undefined,
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const [name, ...value] = pair!.split('=');
        cookies.set(name!.trim(), value.join('='));
      }
      const location = res.headers.get('location');
      if (location && !location.startsWith(issuer) && !location.startsWith('/')) {
        return Object.fromEntries(new URL(location).searchParams);
      }
      if (location) {
        url = new URL(location, issuer).href;
        continue;
      }
      const page = await res.text();
      const prompt = /name="prompt" value="(login|consent)"/.exec(page)?.[1];
      if (!prompt) throw new Error(`unexpected page from the provider: ${page.slice(0, 200)}`);
      url = `${target}#${prompt}`;
    }
    throw new Error('the provider did not send the browser back');
  }

  return {
    issuer,
    signIn,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
