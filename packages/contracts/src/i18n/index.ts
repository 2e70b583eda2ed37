export * from './languages';
export * from './localize';
export * from './messages';
export * from './pseudo';
