// The changes of import runs that are recorded (src/kernel/events.ts), with their labels: started and cancelled by a
// user, completed or failed by the run's job (the system).
import type { ImportRun } from '../generated/prisma/client.js';
import type { ChangeEvent } from '../kernel/events.js';

export const contentImportActions = {
  import_run_started: 'Import run started',
  import_run_cancelled: 'Import run cancelled',
  import_run_completed: 'Import run completed',
  import_run_failed: 'Import run failed',
} as const;

/** An event about the run, labelled with what it imports. */
export const importRunEvent = (
  action: keyof typeof contentImportActions,
  run: Pick<ImportRun, 'id' | 'organizationId' | 'spaceId' | 'changeRequestId' | 'sourceURL'>,
  payload?: Record<string, unknown>,
): ChangeEvent => ({
  action,
  organizationId: run.organizationId,
  target: { type: 'import-run', id: run.id, label: run.sourceURL },
  spaceId: run.spaceId,
  payload: { changeRequestId: run.changeRequestId, ...payload },
});
