export * from './languages';
export * from './messages';
export * from './pseudo';
