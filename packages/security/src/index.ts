// @switchboard/security: sSRF rules, secrets at rest, random identifiers. Only re-exports here.
export * from './random-hex.ts';
export * from './secrets.ts';
export * from './ssrf.ts';
