import type { CredentialDeps } from '../api-keys/deps.ts';

/** The console session use cases' needs: the credential ones and the lifetimes (CONSOLE_SESSION_*). */
export interface SessionDeps extends Pick<CredentialDeps, 'orm' | 'credentialKeys'> {
  consoleSessions: { absoluteMs: number; idleMs: number };
}
