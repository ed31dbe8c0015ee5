export { allProjections } from './resources/index.ts';
