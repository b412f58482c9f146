import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { portcullis, type CredentialChange, type PortcullisMiddleware, type PortcullisOptions } from '../../packages/client/src';
import { namedTenants } from '../../src/domain/service-key';
import { ManageServiceKeys } from '../../src/application/service-keys/manage-service-keys';
import type { ServiceKeyRepository } from '../../src/application/ports/service-keys';
import { NodeSecrets } from '../../src/adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../../src/adapters/crypto/random-uuid-generator';
import { SystemClock } from '../../src/adapters/time/system-clock';
import type { Clock } from '../../src/application/ports/clock';
import { downstreamApp } from '../../examples/downstream/app';

export function serviceKeyManager(serviceKeys: ServiceKeyRepository, clock: Clock = new SystemClock()): ManageServiceKeys {
  return new ManageServiceKeys({ serviceKeys, ids: new RandomUuidGenerator(), secrets: new NodeSecrets(), clock });
}

/**
 * A service key that sees one tenant only, under a name no other suite uses. Suites share the
 * Postgres database: a stream of every tenant carries their changes too, and a change heard while
 * an introspection is under way (rightly) keeps its answer from being remembered.
 */
export async function tenantServiceKey(serviceKeys: ServiceKeyRepository, tenantId: string, purpose: string): Promise<string> {
  const { rawKey } = await serviceKeyManager(serviceKeys).create(`${purpose}-${process.pid}-${Date.now()}`, namedTenants([tenantId]));
  return rawKey;
}

/** A Portcullis app on a real port, which can be stopped (connections cut) and started again on the same port. */
export class RunningServer {
  private server: Server;
  private port = 0;

  constructor(private readonly listener: RequestListener) {
    this.server = createServer(listener);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!this.server.listening) this.server = createServer(this.listener);
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** As a crash looks to clients: every connection cut, nothing answering until `start`. */
  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }
}

/** Counts what reaches a listener: how many introspections the verifier really made. */
export function countingIntrospections(listener: RequestListener): { listener: RequestListener; count: () => number } {
  let count = 0;
  return {
    listener: (req, res) => {
      if (req.method === 'POST' && req.url === '/api/v1/auth/introspect') count += 1;
      listener(req, res);
    },
    count: () => count,
  };
}

export interface Downstream {
  readonly app: express.Express;
  readonly auth: PortcullisMiddleware;
  readonly errors: Error[];
  /** Resolves at the next change the verifier hears that matches. */
  nextChange(matches: (change: CredentialChange) => boolean): Promise<CredentialChange>;
  /** Resolves at the next time the feed opens (true) or drops (false). */
  nextFeed(connected: boolean): Promise<void>;
}

/** The example downstream service, over the client library, pointed at a Portcullis. */
export function downstream(url: string, serviceKey: string, extra: Partial<PortcullisOptions> = {}): Downstream {
  const errors: Error[] = [];
  const changeWaiters: Array<{ matches: (change: CredentialChange) => boolean; resolve: (change: CredentialChange) => void }> = [];
  const feedWaiters: Array<{ connected: boolean; resolve: () => void }> = [];
  const auth = portcullis({
    url,
    serviceKey,
    reconnectMs: { min: 20, max: 100 },
    ...extra,
    onError: (error) => errors.push(error),
    onChange: (change) => {
      for (const waiter of changeWaiters.splice(0)) {
        if (waiter.matches(change)) waiter.resolve(change);
        else changeWaiters.push(waiter);
      }
    },
    onFeed: (connected) => {
      for (const waiter of feedWaiters.splice(0)) {
        if (waiter.connected === connected) waiter.resolve();
        else feedWaiters.push(waiter);
      }
    },
  });
  const app = downstreamApp(auth);
  return {
    app,
    auth,
    errors,
    nextChange: (matches) => new Promise((resolve) => changeWaiters.push({ matches, resolve })),
    nextFeed: (connected) => new Promise((resolve) => feedWaiters.push({ connected, resolve })),
  };
}
