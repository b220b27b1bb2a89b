// Test support for every test of the repository: infrastructure fixtures (infra), the launcher of
// services and processes (launcher), the services stack (services), HTTP receivers and the OpenAPI
// contract check. Import it by relative path.
export * from './commands';
export * from './infra';
export * from './launcher';
export * from './json';
export * from './openapi';
export * from './receiver';
export * from './services';
export * from './poison';
export * from './otlp';
export * from './messages';
export * from './numbers';
export * from './records';
export * from './session-body';
export * from './fixture';
export * from './orm';
export * from './stacks';
export * from './chromium';
export * from './console-build';
