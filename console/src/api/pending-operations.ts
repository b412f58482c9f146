/**
 * Operations the console already calls whose entries in docs/openapi.yaml are still being written
 * (e-mail verification, change of address), typed here with the shapes the
 * API will have. client.ts lets the document win: once a path is documented, its entry here is
 * ignored and the generated type is the one checked, so an entry can be deleted as soon as its path
 * appears in the document (nothing breaks in the meantime).
 */
type Json<T> = { content: { 'application/json': T } };
type NoParameters = { query?: never; header?: never; path?: never; cookie?: never };
type Error = Json<{ error: string }>;

type Refusals = { 400: Error; 401: Error; 403: Error; 404: Error; 409: Error; 429: Error; 503: Error };

interface Post<Body, Answer> {
  parameters: NoParameters;
  requestBody: Json<Body>;
  responses: Answer & Refusals;
}

interface PostWithoutBody<Answer> {
  parameters: NoParameters;
  requestBody?: never;
  responses: Answer & Refusals;
}

interface Item<Operation> {
  parameters: NoParameters;
  get?: never;
  put?: never;
  post: Operation;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
}

interface Accepted {
  202: Json<Record<string, never>>;
}

export interface PendingPaths {
  '/api/v1/auth/email/verify': Item<Post<{ token: string }, { 200: Json<{ verified: true }> }>>;
  '/api/v1/auth/email/verify/resend': Item<PostWithoutBody<Accepted>>;
  '/api/v1/auth/email/change': Item<Post<{ new_email: string; current_password: string }, Accepted>>;
  '/api/v1/auth/email/change/confirm': Item<Post<{ token: string }, { 200: Json<{ token: string; expires_in: string }> }>>;
}
