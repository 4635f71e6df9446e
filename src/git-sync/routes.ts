// REST endpoints of a space's Git sync (GitBook's space-git), and the REST shapes of its state and operations.
import { type RestModule, route } from '../../rest/route.js';

export const gitSyncRest: RestModule = {
  fragments: {
    GitSyncState: 'repoName installationStatus installationProvider integration installationId url operation updatedAt',
    GitSyncOperation: 'state direction startedAt endedAt error skipped',
  },
  routes: [
    route('POST /v1/spaces/:spaceId/git/import', 'importGitRepository', 'importGitRepository(spaceId: $spaceId, input: $body)', {
      status: 204,
    }),
    route('POST /v1/spaces/:spaceId/git/export', 'exportToGitRepository', 'exportToGitRepository(spaceId: $spaceId, input: $body)', {
      status: 204,
    }),
    route('GET /v1/spaces/:spaceId/git/info', 'getSpaceGitInfo', 'space(id: $spaceId).gitInfo'),
  ],
};
