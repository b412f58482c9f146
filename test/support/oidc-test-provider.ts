import { generateKeyPair, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { importEsm } from '../../src/adapters/esm-import';

const generateRsa = promisify(generateKeyPair);
const rsaKeyPair = () => generateRsa('rsa', { modulusLength: 2048 });

/**
 * A real OpenID provider (the `oidc-provider` package) on 127.0.0.1, for tests: an `http:` issuer,
 * clients and accounts the test registers, and a login page of its own that a browser can fill in
 * and `signIn` posts programmatically. `tamperIdTokens` re-signs the ID tokens it issues with other
 * claims (audience, expiry, nonce, issuer) or with a key it does not publish, for the negative cases.
 */
export interface TestAccount {
  readonly sub: string;
  readonly email?: string;
  readonly email_verified?: boolean;
  readonly groups?: readonly string[];
  /** The authentication methods the login reports (`amr`); `["pwd"]` unless given. */
  readonly amr?: readonly string[];
}

export interface TestClient {
  readonly client_id: string;
  readonly client_secret: string;
  readonly redirect_uris: readonly string[];
}

export interface IdTokenTampering {
  /** Replaces the claims of every ID token issued (the signature stays the provider's own). */
  readonly claims?: (claims: Record<string, unknown>) => Record<string, unknown>;
  /** Signs with a key the provider does not publish, under the kid of its own. */
  readonly foreignKey?: boolean;
}

/* The parts of oidc-provider's API used here; the package ships no types. */
interface KoaContext { path: string; body: unknown }
interface ProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string; prompt: { name: string } }>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: object, options?: object): Promise<void>;
}
interface GrantContext {
  oidc: {
    client: { clientId: string };
    session: { accountId: string };
    params: { scope?: string };
    provider: { Grant: new (init: object) => { addOIDCScope(scope: string): void; save(): Promise<string> } };
  };
}
type ProviderClass = new (issuer: string, configuration: object) => ProviderInstance;

export class OidcTestProvider {
  private readonly accounts = new Map<string, TestAccount>();
  private readonly clients: TestClient[] = [];
  private tampering: IdTokenTampering | null = null;
  private provider!: ProviderInstance;
  private readonly cookieKey = randomBytes(32).toString('hex');
  /** The provider's storage (sessions, codes, grants), kept when it is rebuilt for a new client. */
  private readonly adapter = storedIn(new Map());

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly Provider: ProviderClass,
    private readonly key: { readonly jwk: Record<string, unknown>; readonly privateKey: KeyObject; readonly kid: string },
    private readonly foreignKey: KeyObject,
  ) {}

  static async start(): Promise<OidcTestProvider> {
    const module = await importEsm<{ default: ProviderClass }>('oidc-provider');
    let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => { res.statusCode = 503; res.end(); };
    const server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const kid = randomBytes(8).toString('hex');
    // Made off the event loop: RSA keys take long enough to hold up a database handshake started beside them.
    const [{ privateKey }, { privateKey: foreign }] = await Promise.all([rsaKeyPair(), rsaKeyPair()]);
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };
    const provider = new OidcTestProvider(server, `http://127.0.0.1:${port}`, module.default, { jwk, privateKey, kid }, foreign);
    provider.build();
    handler = (req, res) => provider.handle(req, res);
    return provider;
  }

  addAccount(account: TestAccount): TestAccount {
    this.accounts.set(account.sub, account);
    return account;
  }

  /** Registers a client; the provider is rebuilt around the same keys, so do this before sign-ins. */
  addClient(client: Partial<TestClient> & Pick<TestClient, 'redirect_uris'>): TestClient {
    const registered: TestClient = {
      client_id: client.client_id ?? `client-${randomBytes(6).toString('hex')}`,
      client_secret: client.client_secret ?? randomBytes(24).toString('base64url'),
      redirect_uris: client.redirect_uris,
    };
    this.clients.push(registered);
    this.build();
    return registered;
  }

  tamperIdTokens(tampering: IdTokenTampering | null): void {
    this.tampering = tampering;
  }

  /**
   * Follows an authorization URL as a browser would (its own cookie jar), signs in as `login` on
   * the login page, and answers the URL the provider sends the browser back to (the client's
   * redirect_uri with code and state, or with an error).
   */
  async signIn(authorizationUrl: string, login: string): Promise<string> {
    const jar = new CookieJar();
    let url = authorizationUrl;
    let loginPosted = false;
    for (let hop = 0; hop < 10; hop += 1) {
      if (!url.startsWith(this.issuer)) return url;
      const isLoginPage = /\/interaction\/[^/]+$/.test(new URL(url).pathname);
      const response = isLoginPage && !loginPosted
        ? await jar.fetch(`${url}/login`, { method: 'POST', body: new URLSearchParams({ login }) })
        : await jar.fetch(url, {});
      if (isLoginPage) loginPosted = true;
      const location = response.headers.get('location');
      if (!location) throw new Error(`The test provider answered ${response.status} without a redirect at ${url}: ${await response.text()}`);
      url = new URL(location, url).href;
    }
    throw new Error('The test provider redirected too often');
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private build(): void {
    const accounts = this.accounts;
    const provider = new this.Provider(this.issuer, {
      clients: this.clients.map((client) => ({ ...client, redirect_uris: [...client.redirect_uris], grant_types: ['authorization_code'], response_types: ['code'] })),
      async findAccount(_ctx: unknown, sub: string) {
        const account = accounts.get(sub);
        if (!account) return undefined;
        return {
          accountId: sub,
          async claims() {
            return { sub, email: account.email, email_verified: account.email_verified, groups: account.groups ? [...account.groups] : undefined };
          },
        };
      },
      // auth_time and amr are sent as most providers send them: in every ID token.
      claims: { openid: ['sub', 'auth_time', 'amr'], email: ['email', 'email_verified'], profile: ['groups'] },
      // Real providers put the address in the ID token when the `email` scope is asked for.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      // A first-party test client: what is asked for is granted, without a consent page.
      async loadExistingGrant(ctx: GrantContext) {
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
        grant.addOIDCScope(ctx.oidc.params.scope ?? 'openid');
        await grant.save();
        return grant;
      },
      adapter: this.adapter,
      cookies: { keys: [this.cookieKey] },
      jwks: { keys: [this.key.jwk] },
      pkce: { required: () => true },
      // In seconds; an ID token lives an hour, as at most providers.
      ttl: { AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 3600 },
    });
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: unknown } | undefined;
      if (ctx.path === '/token' && this.tampering && body && typeof body.id_token === 'string') {
        body.id_token = this.resign(body.id_token, this.tampering);
      }
    });
    this.provider = provider;
  }

  private resign(idToken: string, tampering: IdTokenTampering): string {
    const [header, payload] = idToken.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const changed = tampering.claims ? tampering.claims(claims) : claims;
    const input = `${header}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}`;
    const key = tampering.foreignKey ? this.foreignKey : this.key.privateKey;
    return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
  }

  /** How many times each path was asked for (without its query), for tests of what a client reads again. */
  readonly requests = new Map<string, number>();

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '').split('?')[0]!;
    this.requests.set(path, (this.requests.get(path) ?? 0) + 1);
    const match = /^\/interaction\/([^/?]+)(\/login)?/.exec(req.url ?? '');
    if (!match) {
      this.provider.callback()(req, res);
      return;
    }
    this.interaction(req, res, Boolean(match[2])).catch((error: unknown) => {
      res.statusCode = 400;
      res.setHeader('Content-Type', 'text/plain');
      res.end(error instanceof Error ? error.message : 'interaction failed');
    });
  }

  private async interaction(req: IncomingMessage, res: ServerResponse, submitted: boolean): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    if (!submitted) {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(loginPage(details.uid));
      return;
    }
    const login = new URLSearchParams(await readBody(req)).get('login') ?? '';
    const account = this.accounts.get(login);
    if (!account) {
      res.statusCode = 401;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(loginPage(details.uid, 'Unknown user'));
      return;
    }
    await this.provider.interactionFinished(req, res, {
      login: { accountId: account.sub, amr: [...(account.amr ?? ['pwd'])] },
    }, { mergeWithLastSubmission: false });
  }
}

interface Stored { payload: Record<string, unknown>; expiresAt: number }

/**
 * oidc-provider's storage adapter (one instance per model), over one map for the whole provider:
 * what it stores lives as long as the test's provider does. Expired entries are not answered.
 */
function storedIn(store: Map<string, Stored>) {
  return class {
    constructor(private readonly model: string) {}
    private key(id: string) { return `${this.model}:${id}`; }
    private live(key: string) {
      const found = store.get(key);
      return found && found.expiresAt > Date.now() ? found.payload : undefined;
    }
    async upsert(id: string, payload: Record<string, unknown>, expiresIn: number) {
      store.set(this.key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
    }
    async find(id: string) { return this.live(this.key(id)); }
    async findByUid(uid: string) { return this.findBy('uid', uid); }
    async findByUserCode(userCode: string) { return this.findBy('userCode', userCode); }
    async consume(id: string) {
      const found = store.get(this.key(id));
      if (found) found.payload = { ...found.payload, consumed: Math.floor(Date.now() / 1000) };
    }
    async destroy(id: string) { store.delete(this.key(id)); }
    async revokeByGrantId(grantId: string) {
      for (const [key, { payload }] of store) if (payload['grantId'] === grantId) store.delete(key);
    }
    private findBy(field: string, value: string) {
      for (const [key, { payload }] of store) if (key.startsWith(`${this.model}:`) && payload[field] === value) return this.live(key);
      return undefined;
    }
  };
}

function loginPage(uid: string, error?: string): string {
  const alert = error ? `<p role="alert">${error}</p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test provider: sign in</title></head>
<body><main><h1>Sign in to the test provider</h1>${alert}
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">
<label for="login">Username</label><input id="login" name="login" autocomplete="username" autofocus>
<button type="submit">Sign in</button></form></main></body></html>`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A browser's cookie handling, as far as one host needs it: names and values, dropped when expired. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  async fetch(url: string, init: { method?: string; body?: URLSearchParams }): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers['cookie'] = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const expired = attributes.some((attribute) => /^\s*expires=/i.test(attribute) && Date.parse(attribute.split('=')[1] ?? '') < Date.now());
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(separator + 1).trim());
    }
    return response;
  }
}

