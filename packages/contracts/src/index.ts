export * from './enums.js';
export * from './envelope.js';
export * from './format.js';
export * from './options.js';
export * from './paging.js';
export * from './site.js';
export * from './user.js';
export * from './userGroup.js';
