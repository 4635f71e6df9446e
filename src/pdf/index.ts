import './types.js';

export { pdfRest } from './routes.js';
