/**
 * The Portcullis test kit (`portcullis/testing`): the real service in a test's process, on memory
 * storage, with helpers that arrange a world in one line each. docs/testing-with-portcullis.md
 * shows how a product team tests a module with it.
 *
 * Never imported by the service itself (the layering rule checks it): it builds a Portcullis whose
 * passwords are hashed with InsecureFastPasswordHasherForTestsOnly, which refuses NODE_ENV=production
 * (or prod, in any case and spacing).
 */
import 'reflect-metadata';
export { createTestPortcullis, TestPortcullis, type TestPortcullisOptions } from './create-test-portcullis';
export {
  startTestPortcullis, TestPortcullisServer, DownstreamDidNotFollow, type ProbeAnswer, type SeenAfterOptions,
} from './test-portcullis-server';
export { TestClock, type Duration } from './test-clock';
export type { RotateSigningKeyOptions, SigningKeyIds } from './rotating-signing-keys';
export type { PasskeyOptions, SignInFactor, TestPasskey, TestTotp } from './kit-factors';
export { SoftwareAuthenticator, type AnswerOptions, type SoftwareCredential } from './software-authenticator';
export { TestMailbox, type LinkPage, type SentMessage } from './test-mailbox';
export { InsecureFastPasswordHasherForTestsOnly, InsecureHasherInProductionError, namesProduction } from './insecure-fast-password-hasher';
export {
  TEST_PASSWORD, testEmail, TestWorld,
  type ApiKeyHeaders, type ApiKeyOptions, type BearerHeaders, type InviteOptions, type LoginOptions, type MemberOptions,
  type TenantOptions, type TestApiKey, type TestInvite, type TestMember, type TestTenant,
} from './world';
export type { Role, InvitableRole } from '../domain/role';
export type { PortcullisModule } from '../bootstrap/modules/portcullis-module';
