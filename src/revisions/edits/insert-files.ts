// insert_files: files from base64 or a URL (stored by the file storage), with `ref`s that pages' markdown anywhere in
// the batch may use (`![alt](./<ref>)`).
import { newId } from '../../kernel/ids.js';
import type { FileContent } from '../store.js';
import type { Operation } from './batch.js';
import type { ContentChange } from './changes.js';

export const insertFiles: Operation<Extract<ContentChange, { operation: 'insert_files' }>> = {
  async apply({ context, insertedFiles, refs }, change, field) {
    for (const [i, file] of change.files.entries()) {
      const stored = await context.storeFile(file, `${field}.files.${i}`);
      const content: FileContent = { ...stored, fileId: newId() };
      insertedFiles.push(content);
      if (file.ref) refs.set(file.ref, content.fileId);
    }
  },
};
