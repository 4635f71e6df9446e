// A repository in GitBook's Git Sync layout, as a team keeps its docs next to its code: `.gitbook.yaml` puts the
// content under docs/; SUMMARY.md nests pages three levels deep, has a group and a link page; pages carry front
// matter; images live in .gitbook/assets and elsewhere under the root; code outside the root is not content.

import type { TestApp } from '../support/app.js';
import { until } from '../support/until.js';

export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
  'base64',
);
/** A 2×1 PNG: other bytes, other dimensions. */
export const LOGO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAADklEQVR4nGP4z8DwH4QBEfcD/ePF9e8AAAAASUVORK5CYII=',
  'base64',
);

export const SUMMARY = `# Table of contents

* [Welcome](README.md)
* [Getting started](getting-started/README.md)
  * [Install](getting-started/install.md)
  * [Configure](getting-started/configure.md)
    * [Advanced tips](getting-started/advanced.md)

## Reference

* [API](reference/api.md)
* [Changelog](https://example.com/changelog)
`;

export const gitbookRepository = (): Record<string, string | Buffer> => ({
  '.gitbook.yaml': 'root: ./docs/\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
  'docs/SUMMARY.md': SUMMARY,
  'docs/README.md': '---\ndescription: Everything about Acme.\n---\n\n# Welcome\n\nAcme helps you ship.\n',
  'docs/getting-started/README.md':
    '---\nicon: rocket\nlayout:\n  width: wide\n  title:\n    visible: false\n---\n\n# Getting started\n\n![Diagram](../.gitbook/assets/diagram.png)\n',
  'docs/getting-started/install.md': '---\nhidden: true\n---\n\n# Install\n\nRun `npm install acme`.\n',
  'docs/getting-started/configure.md': '# Configure\n\nSee [the install](install.md) first.\n',
  'docs/getting-started/advanced.md': '# Advanced tips\n\n- one\n- two\n',
  'docs/reference/api.md': '# API\n\n![Logo](../images/logo.png)\n\nEndpoints.\n',
  'docs/.gitbook/assets/diagram.png': PNG,
  'docs/images/logo.png': LOGO,
  'docs/notes.md': '# Not in the summary\n',
  'src/index.js': 'export const acme = true;\n',
});

export interface OperationView {
  state: string;
  direction: string;
  error?: string;
  skipped?: boolean;
  startedAt: string;
  endedAt?: string;
}

/** The space's Git info once its latest operation has ended (or the last answer after the wait). */
export async function settled(t: TestApp, spaceId: string, token: string): Promise<{ status: number; body: any; text: string }> {
  return until(
    () => t.request('GET', `/v1/spaces/${spaceId}/git/info`, { token }),
    (res) => res.status === 200 && res.body.operation?.state !== 'running',
    30_000,
  );
}
