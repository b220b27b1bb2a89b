export * from './ids.ts';
export * from './schemas.ts';
export * from './catalogue.ts';
export * from './addresses.ts';
export * from './topology.ts';
