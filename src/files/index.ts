import './types.js';

export { downloadUrl, fileDownloads } from './download.js';
export { fileRest } from './routes.js';
export { MAX_FILE_BYTES, type StoredFile, storeFile } from './storage.js';
