export * from './ids';
export * from './schemas';
export * from './catalogue';
export * from './addresses';
