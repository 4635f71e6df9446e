// REST endpoints of users, and the REST shape of a User.
import { type RestModule, route } from '../../rest/route.js';

export const userRest: RestModule = {
  fragments: { User: 'object id displayName email photoURL urls' },
  routes: [
    route('GET /v1/user', 'getAuthenticatedUser', 'viewer'),
    route('GET /v1/users/:userId', 'getUserById', 'user(id: $userId)'),
    route('PATCH /v1/users/:userId', 'updateUserById', 'updateUser(id: $userId, input: $body)'),
  ],
};
