export * from './constants';
export * from './errors';
export * from './pagination';
export * from './system';
export * from './identity';
export * from './catalog';
export * from './availability';
export * from './orders';
