import { Secret, TOTP } from 'otpauth';
import type { UseCases } from '../application/use-cases';
import { SecondFactorRequired } from '../domain/errors';
import type { Principal } from '../domain/principal';
import { SoftwareAuthenticator } from './software-authenticator';
import type { TestClock } from './test-clock';

/** A member's authenticator app as the kit holds it: the secret the app was set up with, and the recovery codes shown once. */
export interface TestTotp {
  /** base32, as POST /mfa/totp gave it. */
  readonly secret: string;
  readonly recoveryCodes: readonly string[];
}

/** A member's passkey, held in a software authenticator (software-authenticator.ts). */
export interface TestPasskey {
  readonly id: string;
  readonly name: string;
  readonly authenticator: SoftwareAuthenticator;
  /** Whether the authenticator verifies its user when it signs: a verified passkey sign-in counts as two factors. */
  readonly userVerified: boolean;
}

/**
 * How the kit signs a member in: `password` alone; `totp` or `recovery_code` as the second step after
 * the password (POST /login, then POST /login/mfa); `passkey` without a password (POST /login/passkey).
 */
export type SignInFactor = 'password' | 'totp' | 'recovery_code' | 'passkey';

export interface PasskeyOptions {
  readonly name?: string;
  /** Default true. */
  readonly userVerified?: boolean;
}

/** Whose factor: a member of a tenant. */
interface Owner {
  readonly tenantId: string;
  readonly userId: string;
}

interface SignInAs extends Owner {
  readonly email: string;
  readonly password: string;
}

interface AppState {
  readonly secret: string;
  readonly recoveryCodes: readonly string[];
  recoveryCodesUsed: number;
  /** The latest 30-second step whose code the kit gave: the service accepts each code once. */
  lastStep: number;
}

const STEP_MS = 30_000;

const keyOf = (owner: Owner): string => `${owner.tenantId}:${owner.userId}`;

/**
 * The second factors the kit enrolled for its members, through the service's own use-cases (the
 * enrollment and confirmation of an app, a passkey's registration ceremony), and the sign-ins that
 * use them. An app's codes are made from the kit's clock, as the member's phone would make them.
 */
export class KitFactors {
  private readonly apps = new Map<string, AppState>();
  private readonly passkeys = new Map<string, TestPasskey>();

  constructor(private readonly useCases: UseCases, private readonly clock: TestClock, private readonly origin: string) {}

  /** POST /mfa/totp, then POST /mfa/totp/confirm with the app's current code. */
  async enrollTotp(caller: Principal): Promise<TestTotp> {
    const { secret } = await this.useCases.enrollAuthenticatorApp.execute(caller);
    const app: AppState = { secret, recoveryCodes: [], recoveryCodesUsed: 0, lastStep: -1 };
    this.apps.set(keyOf(caller), app);
    const { recoveryCodes } = await this.useCases.confirmAuthenticatorApp.execute(caller, this.code(caller));
    this.apps.set(keyOf(caller), { ...app, recoveryCodes });
    return { secret, recoveryCodes };
  }

  /**
   * The code the member's app shows, for a step whose code the kit has not given before: the
   * service accepts each code once, so when the kit's clock is still in the step of the last code
   * given, it is moved on to the start of the next step (at most 30 seconds).
   */
  code(owner: Owner): string {
    const app = this.apps.get(keyOf(owner));
    if (!app) throw new Error(`the kit enrolled no authenticator app for user ${owner.userId}: use enrollTotp or memberWithTotp`);
    const now = this.clock.now().getTime();
    if (Math.floor(now / STEP_MS) <= app.lastStep) {
      this.clock.advance({ seconds: Math.ceil(((app.lastStep + 1) * STEP_MS - now) / 1000) });
    }
    const step = Math.floor(this.clock.now().getTime() / STEP_MS);
    app.lastStep = step;
    return new TOTP({ secret: Secret.fromBase32(app.secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: step * STEP_MS });
  }

  /** POST /mfa/passkeys/options, then POST /mfa/passkeys with a new credential of a software authenticator. */
  async enrollPasskey(caller: Principal, options: PasskeyOptions = {}): Promise<TestPasskey> {
    const authenticator = new SoftwareAuthenticator(this.origin);
    const userVerified = options.userVerified ?? true;
    const creation = await this.useCases.registerPasskey.options(caller);
    const registered = await this.useCases.registerPasskey.execute(caller, {
      name: options.name ?? 'Test passkey', response: authenticator.register(creation, { userVerified }),
    });
    const passkey: TestPasskey = { id: registered.id, name: registered.name, authenticator, userVerified };
    this.passkeys.set(keyOf(caller), passkey);
    return passkey;
  }

  /**
   * A sign-in's token. Without `factor`: the app's code after the password when the kit enrolled
   * one, else the passkey when it registered one, else the password alone.
   */
  async signIn(member: SignInAs, factor?: SignInFactor): Promise<string> {
    const chosen = factor ?? (this.apps.has(keyOf(member)) ? 'totp' : this.passkeys.has(keyOf(member)) ? 'passkey' : 'password');
    if (chosen === 'passkey') return this.passkeySignIn(member);
    if (chosen !== 'password' && !this.apps.has(keyOf(member))) {
      throw new Error(`the kit enrolled no authenticator app for user ${member.userId}: no ${chosen} to sign in with`);
    }
    try {
      return (await this.useCases.login.execute({ email: member.email, password: member.password })).token;
    } catch (error) {
      if (!(error instanceof SecondFactorRequired) || chosen === 'password') throw error;
      const mfaToken = error.answerFields['mfa_token'];
      const proofs = chosen === 'totp' ? { totp: this.code(member) } : { recovery_code: this.nextRecoveryCode(member) };
      return (await this.useCases.completeSignIn.execute({ mfaToken, proofs })).token;
    }
  }

  private async passkeySignIn(member: Owner): Promise<string> {
    const passkey = this.passkeys.get(keyOf(member));
    if (!passkey) throw new Error(`the kit registered no passkey for user ${member.userId}: use enrollPasskey or memberWithPasskey`);
    const { ceremony, options } = await this.useCases.passkeySignIn.options();
    const response = passkey.authenticator.assert(options, { userVerified: passkey.userVerified });
    return (await this.useCases.passkeySignIn.execute({ ceremony, response })).token;
  }

  private nextRecoveryCode(owner: Owner): string {
    const app = this.apps.get(keyOf(owner))!;
    const code = app.recoveryCodes[app.recoveryCodesUsed];
    if (code === undefined) throw new Error(`the kit has used every recovery code of user ${owner.userId}`);
    app.recoveryCodesUsed += 1;
    return code;
  }
}
