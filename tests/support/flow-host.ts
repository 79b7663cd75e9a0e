// A web server holding flow files, at an origin a kiosk's server may be told to allow
// (FLOW_ALLOWED_ORIGINS): the tests of loading a flow from an address, in Node and in Chromium.
// What it answers for each path can change during a test; it records every path asked for.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listen } from './server-harness.ts';

export interface FlowHost {
  origin: string;
  /** path -> the YAML it answers with (200), or a handler of its own; a missing path answers 404 */
  files: Map<string, string | ((req: IncomingMessage, res: ServerResponse) => void)>;
  /** every path asked for, in order */
  hits: string[];
  close(): Promise<void>;
}

export async function startFlowHost(): Promise<FlowHost> {
  const files: FlowHost['files'] = new Map();
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const file = files.get(req.url ?? '');
    if (typeof file === 'function') return file(req, res);
    if (file === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such flow');
    res.writeHead(200, { 'content-type': 'text/yaml; charset=utf-8' }).end(file);
  });
  const port = await listen(server);
  return { origin: `http://127.0.0.1:${port}`, files, hits, close: () => closeServer(server) };
}
