import { createHash, createHmac } from 'node:crypto';

/**
 * The key outside production when TENANT_WALL_KEY is not set: development databases, the embedded
 * one and the tests. Fixed rather than random, so a development database opened again still
 * recognises its service. Production refuses to start without a key of its own (config.ts).
 */
export const DEVELOPMENT_TENANT_WALL_KEY = 'portcullis development tenant-wall key, never for production';

/** Tenants whose proof is kept; past this the memory starts again (a proof costs an HMAC to remake). */
const MAX_KEPT_TENANTS = 10_000;
const HMAC_BLOCK_BYTES = 64;

/**
 * The proofs the database's tenant walls ask for (migration 0009): an HMAC-SHA256 of a subject
 * under the service's key, which the database holds too and its runtime login cannot read. The one
 * place proofs are made; every definer function that crosses the walls checks one with
 * `portcullis_proof_ok(subject, proof)`. Subjects: `tenant:<id>` (the walls, and any function given
 * a tenant), `email:<address>` (login's lookup), `check` (the start-up check). A new kind of
 * crossing takes a subject of its own, so that no proof made for one opens another.
 *
 * Proofs travel as bound parameters only, never in a statement's text: Postgres shows a session's
 * text (pg_stat_activity) to other sessions of the same role, never its parameters.
 */
export class TenantWalls {
  /** SHA-256 of the configured key: 32 bytes whatever its length, so the HMAC's pads are simple. */
  private readonly key: Buffer;
  private readonly settings = new Map<string, string>();

  constructor(secret: string) {
    this.key = createHash('sha256').update(secret, 'utf8').digest();
  }

  /** The proof of any subject, as the database checks it: lower-case hex. */
  proof(subject: string): string {
    return createHmac('sha256', this.key).update(subject, 'utf8').digest('hex');
  }

  /** What the walls' setting carries for a tenant: `<id>:<proof>`. Kept, since a few tenants are asked for again and again. */
  setting(tenantId: string): string {
    const id = tenantId.toLowerCase();
    let value = this.settings.get(id);
    if (value === undefined) {
      if (this.settings.size >= MAX_KEPT_TENANTS) this.settings.clear();
      value = `${id}:${this.proof(`tenant:${id}`)}`;
      this.settings.set(id, value);
    }
    return value;
  }

  /** The proof a definer function taking a tenant id wants beside it. */
  tenantProof(tenantId: string): string {
    return this.setting(tenantId).slice(tenantId.length + 1);
  }

  emailProof(email: string): string {
    return this.proof(`email:${email}`);
  }

  /** The proof the start-up check sends: it tells the database's key from another. */
  checkProof(): string {
    return this.proof('check');
  }

  /** HMAC's inner and outer pads of the key, as the database stores it (XOR needs no SQL then). */
  pads(): { readonly inner: Buffer; readonly outer: Buffer } {
    const inner = Buffer.alloc(HMAC_BLOCK_BYTES, 0x36);
    const outer = Buffer.alloc(HMAC_BLOCK_BYTES, 0x5c);
    for (let i = 0; i < this.key.length; i += 1) {
      inner[i]! ^= this.key[i]!;
      outer[i]! ^= this.key[i]!;
    }
    return { inner, outer };
  }
}
