// What the services agree on, apart from the infrastructure they run on (@switchboard/platform):
// the attempt records and delivery tools exchanged between the dispatchers and the webhooks
// service, the registry of sessions, the paging of every list and the rule for delivered URLs.
export * from './delivery-records';
export * from './delivery-tools';
export * from './session-registry';
export * from './paging';
export * from './urls';
