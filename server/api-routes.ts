// Every route of the kiosk's /api/, in one table: its path, the methods it answers, and who may
// use it. The API handler (api.ts) finds a request's route here and nowhere else, and has one
// handler for each name, so a route cannot be added without saying who may use it; the tests of
// pairing read the same table to try every route.

import { REALTIME_PATH } from './stt-realtime.ts';

/**
 * Who may use a route: `anyone` whose request passes the checks of every /api/ request (the
 * pairing screen's own route), or only a `device` the operator paired (or a browser on the
 * server's own machine, device-guard.ts).
 */
export type RouteDoor = 'anyone' | 'device';

export interface ApiRoute {
  /** the name of its handler in api.ts */
  name: RouteName;
  /** matched exactly (no decoding), or, with `under`, also every path below it */
  path: string;
  under?: true;
  /** the methods it answers (others get 405) */
  methods: readonly string[];
  door: RouteDoor;
  /** a WebSocket (opened by an upgrade request; app.ts hands those to stt-realtime.ts) */
  socket?: true;
}

export type RouteName = 'config' | 'actions' | 'action' | 'flows' | 'operator' | 'studio' | 'analytics' | 'status' | 'pairing' | 'llm' | 'stt' | 'tts' | 'sttRealtime';

/** Every /api/ route. */
export const API_ROUTES: readonly ApiRoute[] = [
  { name: 'config', path: '/api/config', methods: ['GET'], door: 'device' },
  { name: 'actions', path: '/api/actions', methods: ['POST'], door: 'device' },
  { name: 'action', path: '/api/actions/', under: true, methods: ['GET'], door: 'device' },
  { name: 'flows', path: '/api/flows', methods: ['GET'], door: 'device' },
  { name: 'operator', path: '/api/operator', methods: ['GET'], door: 'device' },
  { name: 'operator', path: '/api/operator/', under: true, methods: ['GET', 'POST'], door: 'device' },
  { name: 'studio', path: '/api/studio', methods: ['GET'], door: 'device' },
  { name: 'studio', path: '/api/studio/', under: true, methods: ['GET', 'PUT'], door: 'device' },
  { name: 'analytics', path: '/api/analytics', methods: ['POST'], door: 'device' },
  { name: 'status', path: '/api/status', methods: ['GET'], door: 'device' },
  { name: 'llm', path: '/api/llm/chat/completions', methods: ['POST'], door: 'device' },
  { name: 'stt', path: '/api/stt/audio/transcriptions', methods: ['POST'], door: 'device' },
  { name: 'tts', path: '/api/tts/audio/speech', methods: ['POST'], door: 'device' },
  { name: 'sttRealtime', path: REALTIME_PATH, methods: ['GET'], door: 'device', socket: true },
  { name: 'pairing', path: '/api/pairing', methods: ['GET', 'POST'], door: 'anyone' },
];

/** The route of `path` (the request's path without its query), or undefined when there is none. */
export function findRoute(path: string): ApiRoute | undefined {
  return API_ROUTES.find((route) => (route.under ? path.startsWith(route.path) && path.length > route.path.length : path === route.path));
}
