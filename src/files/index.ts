export { downloadUrl, fileDownloads } from './download.js';
export { MAX_FILE_BYTES, type StoredFile, storeFile } from './storage.js';
