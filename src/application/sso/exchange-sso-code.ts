import { AUDIT_CLIENT_ADDRESS_MAX, AUDIT_USER_AGENT_MAX, boundedText } from '../../domain/audit-event';
import { normalizeEmail } from '../../domain/email';
import { InvalidSsoCode, SecondFactorRequired } from '../../domain/errors';
import type { RequestOrigin } from '../audit/audit-trail';
import { type LoginResult, MFA_TOKEN_TTL_SECONDS } from '../login/login';
import { postNewSignInNotice } from '../login/new-sign-in-notice';
import type { EmailTokens } from '../mail/email-tokens';
import type { Postbox } from '../mail/postbox';
import { enrollmentClaim } from '../mfa/enrollment-sessions';
import type { SecondFactors } from '../mfa/second-factors';
import type { Clock } from '../ports/clock';
import type { DeviceProofs } from '../ports/device-proofs';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';
import type { TokenService } from '../ports/token-service';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface ExchangeSsoCodeDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly emailTokens: EmailTokens;
  readonly factors: SecondFactors;
  readonly tokens: TokenService;
  readonly secrets: Secrets;
  readonly deviceProofs: DeviceProofs;
  readonly postbox: Postbox;
  readonly clock: Clock;
}

export interface ExchangeSsoCodeInput {
  readonly code: unknown;
  readonly deviceProof?: string | undefined;
}

/**
 * POST /sso/exchange: the console trades the callback's one-time code (60 seconds, used once,
 * consumed atomically) for what POST /login answers, so no bearer token ever travels in a URL. The
 * code names the session the callback started: its token carries the session's amr, and the
 * enrollment-only mark when the tenant requires a second factor the session lacks. A code without a
 * session is one where the tenant asked for the member's own factor: the answer is the 401 with an
 * mfa_token that POST /login/mfa takes, as after a password. A device the account has not seen is
 * told of here (the callback is a cross-site redirect, which carries no device cookie).
 */
export class ExchangeSsoCode {
  constructor(private readonly deps: ExchangeSsoCodeDeps) {}

  async execute(input: ExchangeSsoCodeInput, origin: RequestOrigin): Promise<LoginResult> {
    const { repos, unitOfWork, emailTokens, tokens, secrets, deviceProofs, clock } = this.deps;
    const link = await emailTokens.openLink(repos, input.code, 'sso_handoff');
    if (!link) throw new InvalidSsoCode();
    const { token: code, member } = link;
    const owner = { tenantId: member.tenantId, userId: member.id };
    const session = (await repos.sessions.listLive(member.tenantId, member.id)).find((live) => live.id === code.id);
    if (!session) return this.askOwnFactor(code.id, owner, member.email);

    const accountKey = secrets.sha256Hex(normalizeEmail(member.email));
    const device = input.deviceProof === undefined ? null : deviceProofs.verify(input.deviceProof, accountKey);
    await unitOfWork.run(async (tx) => {
      if (!(await tx.emailTokens.consume(member.tenantId, code.id, clock.now()))) throw new InvalidSsoCode();
      if (device === null) {
        const where = { clientAddress: boundedText(origin.clientAddress, AUDIT_CLIENT_ADDRESS_MAX), userAgent: boundedText(origin.userAgent, AUDIT_USER_AGENT_MAX) };
        await postNewSignInNotice(this.deps.postbox, clock, tx, member, where, origin);
      }
    });
    // As stored after the code was used: a member suspended or changed meanwhile gets no token, or a current one.
    const state = await repos.users.findAuthState(member.tenantId, member.id);
    if (!state) throw new InvalidSsoCode();
    const token = tokens.issue({
      tenantId: member.tenantId, userId: member.id, email: member.email, role: state.role, authVersion: state.authVersion,
      sessionId: session.id, amr: session.amr, ...await enrollmentClaim(repos, member.tenantId, session.amr),
    });
    return { token, expiresIn: tokens.expiresIn, deviceProof: deviceProofs.issue(accountKey, device ?? undefined) };
  }

  /** The code is used up and, in the same unit of work, an mfa_token of the member's made: one code, one attempt. */
  private async askOwnFactor(codeId: string, owner: { tenantId: string; userId: string }, email: string): Promise<never> {
    const { repos, unitOfWork, emailTokens, factors, clock } = this.deps;
    const methods = await factors.methodsOf(repos, owner);
    const mfaToken = await unitOfWork.run(async (tx) => {
      if (!(await tx.emailTokens.consume(owner.tenantId, codeId, clock.now()))) return null;
      return methods.length === 0 ? null : emailTokens.issue(tx, { ...owner, email, purpose: 'mfa_sign_in', ttlSeconds: MFA_TOKEN_TTL_SECONDS });
    });
    if (mfaToken === null) throw new InvalidSsoCode();
    throw new SecondFactorRequired(methods, mfaToken);
  }
}
