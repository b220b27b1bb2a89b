// What the services agree on, apart from the infrastructure they run on (packages/errors, security, config, observability, messaging, db, rpc):
// the attempt records and delivery tools exchanged between the dispatchers and the webhooks
// service, the registry of sessions, the paging of every list, the rule for delivered URLs and the
// characters a name may not hold.
export * from './delivery-records.ts';
export * from './delivery-tools.ts';
export * from './session-records.ts';
export * from './session-registry.ts';
export * from './paging.ts';
export * from './urls.ts';
export * from './names.ts';
export * from './console-links.ts';
export * from './ordering.ts';
