import { IsString, MaxLength } from 'class-validator';
import { DomainError, json, type PortcullisModule, route, VisibleText } from 'portcullis';

// A product module written outside the Portcullis repository: it imports only the installed
// `portcullis` package. test/packaging/installed-packages.test.ts type-checks it with tsc in a
// project of its own and serves it through the test kit and through startPortcullis.

export class ShoutTooLong extends DomainError {
  readonly code = 'SHOUT_TOO_LONG';
  constructor() {
    super('A shout is at most 12 characters');
  }
}

/** POST /api/v1/shouts: validated by the platform with the project's own class-validator decorators. */
export class ShoutBody {
  @IsString()
  @MaxLength(12)
  @VisibleText()
  text!: string;
}

export const shoutsModule: PortcullisModule<'SHOUT_TOO_LONG'> = {
  name: 'shouts',
  // The project's own file: relative names are taken from the folder the service runs in.
  apiReference: 'openapi.yaml',
  auditActions: [],
  errors: { SHOUT_TOO_LONG: { status: 422 } },
  build: () => [
    route({
      method: 'get', path: '/api/v1/shouts/:text', group: 'protected', role: 'member',
      handle: ({ principal, params }) => {
        const text = params['text'] ?? '';
        if (text.length > 12) throw new ShoutTooLong();
        return json(200, { shout: text.toUpperCase(), by: principal.role });
      },
    }),
    route({
      method: 'post', path: '/api/v1/shouts', group: 'protected', role: 'member', body: ShoutBody,
      handle: ({ body }) => json(201, { shout: body.text.toUpperCase() }),
    }),
  ],
};
