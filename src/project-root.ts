// The project's root directory, where package.json and prisma/ are. Modules run from src/ (tests and scripts, under
// tsx or vitest) and from dist/src/ (the build that `npm start` runs), so the root is the nearest directory above
// with a package.json, not a fixed number of '..' from a module.
import { existsSync } from 'node:fs';
import path from 'node:path';

function rootAbove(start: string): string {
  for (let directory = start; ; directory = path.dirname(directory)) {
    if (existsSync(path.join(directory, 'package.json'))) return directory;
    if (path.dirname(directory) === directory) throw new Error(`No package.json in ${start} or above it.`);
  }
}

export const projectRoot = rootAbove(import.meta.dirname);
