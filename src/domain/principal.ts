/** Who a protected request acts as, once part 5's check has passed. */
export interface Principal {
  readonly tenantId: string;
  readonly userId: string;
  readonly role: string;
  readonly method: 'jwt' | 'api_key';
}
