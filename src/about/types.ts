// What the service says of itself: its version and build.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { migrationsDir } from '../db/migrations.js';
import { builder } from '../kernel/builder.js';
import { projectRoot } from '../project-root.js';

/** The package's version, and a release date: that of the newest migration (BUILD_DATE, when set, takes its place). */
function readInformation() {
  const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  const newest = readdirSync(migrationsDir)
    .filter((name) => /^\d{14}_/.test(name))
    .sort()
    .at(-1)!;
  const [, y, mo, d, h, mi, s] = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(newest)!;
  return { version, build: new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`).toISOString() };
}

const information = readInformation();

const ApiInformation = builder.objectRef<{ version: string; build: string }>('ApiInformation').implement({
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Version of this release of the service.' }),
    build: t.exposeString('build', { description: 'Date of this release (ISO 8601): BUILD_DATE, else its newest migration.' }),
  }),
});

builder.queryFields((t) => ({
  apiInformation: t.field({
    type: ApiInformation,
    description: 'The version and build of this service.',
    resolve: (_root, _args, ctx) => ({ version: information.version, build: ctx.config.buildDate ?? information.build }),
  }),
}));
