// GET /v1/: what the service says of itself.
import { type RestModule, route } from '../../rest/route.js';

export const aboutRest: RestModule = {
  routes: [route('GET /v1/', 'getApiInformation', 'apiInformation')],
};
