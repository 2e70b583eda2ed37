import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiPath } from '../lib/access';
import { sendError } from '../lib/errors';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A path ending like a file (app.js, logo.svg) is a missing file, not a client route; e-mailed tokens contain dots too. */
const FILE_EXTENSION = /\.[A-Za-z0-9]{1,8}$/;

/**
 * Serves the built web app from the API's own origin: hashed assets cached for a year,
 * everything else revalidated, and client routes (paths without a file extension)
 * answered with index.html. Unknown /api/ paths answer 404 in the error envelope.
 */
export async function registerWeb(app: FastifyInstance, distDir: string | undefined) {
  const root = distDir && existsSync(path.join(distDir, 'index.html')) ? path.resolve(distDir) : undefined;
  if (distDir && !root) {
    app.log.warn({ distDir }, 'web app not built: serving the API only (run npm run build)');
  }
  if (root) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      index: 'index.html',
      wildcard: true,
      setHeaders(reply, filePath) {
        const isHashedAsset = filePath.startsWith(path.join(root, 'assets') + path.sep);
        reply.header('cache-control', isHashedAsset ? IMMUTABLE : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isClientRoute =
      root !== undefined &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(pathname) &&
      !FILE_EXTENSION.test(path.posix.basename(pathname));
    if (isClientRoute) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(reply, 404, [{ code: 'not_found', detail: 'Not found.', attr: null }]);
  });
}
