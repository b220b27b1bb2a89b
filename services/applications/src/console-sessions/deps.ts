import type { CredentialDeps } from '../api-keys/deps.ts';

/**
 * The console session use cases' needs: the credential ones, the lifetimes (CONSOLE_SESSION_*) and
 * the clock their ends are measured by (the wall clock; tests move it).
 */
export interface SessionDeps extends Pick<CredentialDeps, 'orm' | 'credentialKeys'> {
  consoleSessions: { absoluteMs: number; idleMs: number; now: () => Date };
}
