/** A SCIM request admitted by its token: the tenant's identity provider, acting on that tenant only. */
export interface ScimCaller {
  readonly tenantId: string;
  /** The SHA-256 of the token it presented, to record its use. */
  readonly tokenHash: string;
}
